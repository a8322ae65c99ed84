//! The command line of the `scaling` example.

/// What the command line asked for.
pub(crate) struct Options {
    pub(crate) threads: Vec<usize>,
    pub(crate) shapes: Vec<usize>,
    pub(crate) frames: usize,
    /// Warm-up frames (`--warm-up`; `None`: [`warm_up`]'s default).
    pub(crate) warm_up: Option<usize>,
    /// Turns the runs take at their timed frames (`--rounds`, [`ROUNDS`] by default).
    pub(crate) rounds: usize,
    pub(crate) speed: f32,
    /// The share of the shapes that move (`--moving`).
    pub(crate) moving: f32,
    pub(crate) modes: Vec<String>,
    pub(crate) reorder: bool,
    /// Whether the kept finder may choose a search from scratch (`--choice on`, the default).
    pub(crate) choice: bool,
    /// Whether the finders hold the pool's threads awake during a call (`--spin on`, the
    /// default).
    pub(crate) spin: bool,
    /// Whether the frames are called from the main thread (`--caller main`).
    pub(crate) main: bool,
    /// The scene (`--scene`), one of [`SCENES`].
    pub(crate) scene: String,
}

/// Frames timed by default: the motion's whole period (every shape turns back every 64
/// frames). A kept frame's cost comes in waves, as shapes that left their enlarged boxes
/// together leave their new ones about together (at 1 M shapes on one thread of a Zen 5,
/// from 33 ms in a frame without escapers to 110–123 in one of 167 k), so the median of a
/// shorter window says where the window fell: over 30 frames the 1 M kept frame's read 52–53
/// ms where the finder chose (a search from scratch and a rebuild shortly before) and 70–75
/// with `--choice off`; over 128, 55.7–56.0 and 62.3–62.5 (2026-12-01).
pub(crate) const FRAMES: usize = 128;

/// Turns the runs take at their timed frames by default: on the two-core VMs a run's
/// median moved by a fifth from one run to the next, and a slow spell of the host (minutes
/// at a time) fell on whichever runs ran then: one run's one-thread 100 k kept frame read
/// 9.56 ms against 8.99 from scratch where the run before read 6.35 against 9.38 (the same
/// build, 2026-12-06, Intel Xeon). In turns of a quarter of the frames each, every run
/// meets the host's spells alike; every world is then held through the rounds (with the
/// 100 k and 1 M worlds of 1 and 2 threads the process peaked at 1.5 GB, where a process of
/// one 1 M run in one go peaked at 0.3 GB from scratch and 0.6 GB kept).
pub(crate) const ROUNDS: usize = 4;

/// Calls after which a kept finder that may choose between its kept path and a search from
/// scratch has timed both and taken the cheaper for the first time (the first trial of the
/// kept path ends after 93 calls: see `src/scene/kept/choice.rs`).
pub(crate) const FIRST_VERDICT: usize = 100;

/// The warm-up frames of every run: `--warm-up`, else as many as are timed, and where a kept
/// finder may choose, at least [`FIRST_VERDICT`] (its searches from scratch too, so that both
/// modes time the same frames of the motion): the timed frames are then those of a finder
/// that has chosen, as every frame of a game after its first second or two, not those of
/// its first trial.
pub(crate) fn warm_up(o: &Options) -> usize {
    let choosing = o.choice && o.modes.iter().any(|m| m == "kept");
    o.warm_up.unwrap_or(if choosing {
        o.frames.max(FIRST_VERDICT)
    } else {
        o.frames
    })
}

/// The scenes `--scene` takes.
pub(crate) const SCENES: [&str; 5] = ["mixed", "sized", "crowded", "polygons", "tiles"];

/// The usage line and what each option does, for `--help` and after a wrong option.
pub(crate) const USAGE: &str = "\
usage: scaling [--threads 1,2] [--shapes 100000,1000000] [--frames 128] [--warm-up N]
               [--rounds 4] [--modes kept,scratch] [--reorder] [--speed 0.06] [--moving 1]
               [--choice on|off] [--spin on|off] [--caller pool|main]
               [--scene mixed|sized|crowded|polygons|tiles]

  --threads LIST  thread counts to run, each in a rayon pool of its own (default 1,2)
  --shapes LIST   scene sizes (default 100000,1000000)
  --frames N      frames timed per run (default 128: a whole to and fro of the motion)
  --warm-up N     frames run before the timed ones (default: as many as timed, at least
                  100 where a kept finder may choose between its paths)
  --rounds R      turns the runs take at their timed frames, so that a slow spell of the
                  host falls on every run alike (default 4; 1: each run in one go)
  --modes LIST    kept, scratch or both (default both)
  --reorder       put the scene in spatial order first (Scene::reorder)
  --speed S       each shape moves S of its half extent a frame (default 0.06)
  --moving M      the share of the shapes that moves (default 1)
  --choice on|off whether a kept finder may search from scratch where that is cheaper
  --spin on|off   whether the pool's threads look for work through a whole call
  --caller C      pool: frames called from inside each pool; main: from the main thread,
                  on rayon's global pool (one thread count)
  --scene S       mixed (default), sized, crowded, polygons or tiles
  --help          this text";

/// The options, or a message saying what is wrong with them.
pub(crate) fn options() -> Result<Options, String> {
    let mut o = Options {
        threads: vec![1, 2],
        shapes: vec![100_000, 1_000_000],
        frames: FRAMES,
        warm_up: None,
        rounds: ROUNDS,
        speed: 0.06,
        moving: 1.0,
        modes: vec!["kept".into(), "scratch".into()],
        reorder: false,
        choice: true,
        spin: true,
        main: false,
        scene: "mixed".into(),
    };
    let list = |flag: &str, v: &str| -> Result<Vec<usize>, String> {
        v.split(',')
            .map(|x| x.trim().replace('_', "").parse::<usize>())
            .collect::<Result<Vec<_>, _>>()
            .ok()
            .filter(|l| !l.is_empty() && l.iter().all(|&x| x > 0))
            .ok_or_else(|| {
                format!("{flag} takes positive whole numbers separated by commas, got {v:?}")
            })
    };
    let positive = |flag: &str, v: &str| -> Result<usize, String> {
        (v.trim().replace('_', "").parse().ok())
            .filter(|&x: &usize| x > 0)
            .ok_or_else(|| format!("{flag} takes a positive whole number, got {v:?}"))
    };
    let on_off = |flag: &str, v: &str| match v {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{flag} takes on or off, got {v:?}")),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        // Taken by the options that have one, so that an unknown option is named as such.
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--reorder" => o.reorder = true,
            "--help" | "-h" => {
                println!("{USAGE}");
                std::process::exit(0)
            }
            "--threads" => o.threads = list(&flag, &value()?)?,
            "--shapes" => o.shapes = list(&flag, &value()?)?,
            "--frames" => o.frames = positive(&flag, &value()?)?,
            "--warm-up" => {
                let value = value()?;
                o.warm_up = Some(value.trim().parse().map_err(|_| {
                    format!("--warm-up takes a whole number of frames, got {value:?}")
                })?);
            }
            "--rounds" => o.rounds = positive(&flag, &value()?)?,
            "--speed" => {
                let value = value()?;
                o.speed = value
                    .parse()
                    .ok()
                    .filter(|s: &f32| s.is_finite() && *s >= 0.0)
                    .ok_or_else(|| format!("--speed takes a number >= 0, got {value:?}"))?;
            }
            "--moving" => {
                let value = value()?;
                o.moving = value
                    .parse()
                    .ok()
                    .filter(|m: &f32| (0.0..=1.0).contains(m))
                    .ok_or_else(|| format!("--moving takes a share from 0 to 1, got {value:?}"))?;
            }
            "--choice" => o.choice = on_off(&flag, &value()?)?,
            "--spin" => o.spin = on_off(&flag, &value()?)?,
            "--caller" => {
                let value = value()?;
                o.main = match value.as_str() {
                    "pool" => false,
                    "main" => true,
                    _ => return Err(format!("--caller takes pool or main, got {value:?}")),
                }
            }
            "--scene" => {
                let value = value()?;
                if !SCENES.contains(&value.as_str()) {
                    return Err(format!("--scene takes one of {SCENES:?}, got {value:?}"));
                }
                o.scene = value;
            }
            "--modes" => {
                let value = value()?;
                o.modes = value.split(',').map(|m| m.trim().to_string()).collect();
                if let Some(m) = o
                    .modes
                    .iter()
                    .find(|m| !["kept", "scratch"].contains(&m.as_str()))
                {
                    return Err(format!("--modes takes kept, scratch or both, got {m:?}"));
                }
            }
            _ => return Err(format!("unknown option {flag:?}")),
        }
    }
    if o.main && o.threads.len() != 1 {
        return Err(
            "--caller main takes one thread count (rayon's global pool is built once)".into(),
        );
    }
    Ok(o)
}
