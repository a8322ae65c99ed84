//! A [`Scene`] saved and loaded with serde (feature `serde`): a level file. What is saved is
//! what a user can see: the cell size setting, each index's last id (so that ids and
//! generations continue as they would have), and every live shape with its id, filter, static
//! and sensor flags and user data, by index. Loading checks the ids against each other and
//! refuses a file that could alias them.

use super::filter::Rule;
use super::{Filter, Scene};
use crate::shape::Shape;
use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error as _};

/// One live shape as saved.
#[derive(Serialize, Deserialize)]
struct Saved {
    id: u32,
    shape: Shape,
    filter: Filter,
    #[serde(default, rename = "static")]
    fixed: bool,
    #[serde(default)]
    sensor: bool,
    #[serde(default)]
    user_data: u64,
}

/// A scene as saved.
#[derive(Serialize, Deserialize)]
struct Level {
    cell_size: Option<f32>,
    /// Per index, the id it was last handed out as.
    ids: Vec<u32>,
    shapes: Vec<Saved>,
}

impl Serialize for Scene {
    /// The cell size setting, each index's last id, and the live shapes by index (see the
    /// [`Scene`] docs, "Saving and loading").
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let shapes = self
            .iter()
            .map(|(id, shape)| {
                let rule = self.rule(id).expect("a live id has a rule");
                Saved {
                    id,
                    shape,
                    filter: rule.filter,
                    fixed: self.is_static(id),
                    sensor: rule.sensor,
                    user_data: self.user_data(id).expect("a live id has user data"),
                }
            })
            .collect();
        Level {
            cell_size: self.cell_size,
            ids: self.handles.last_ids().to_vec(),
            shapes,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Scene {
    /// A scene as [`Serialize`] wrote it: the same ids, the next push's id included, and the
    /// same answers. Refuses ids that do not fit their indices, a shape id twice, and a cell
    /// size that is not positive and finite.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let level = Level::deserialize(deserializer)?;
        let fail = |e: String| D::Error::custom(format!("a saved Scene: {e}"));
        let mut scene = Scene::new();
        if let Some(size) = level.cell_size {
            if !(size > 0.0 && size.is_finite()) {
                return Err(fail(format!("cell size {size} is not positive and finite")));
            }
            scene.cell_size = Some(size);
        }
        scene.handles = super::handles::Handles::restored(level.ids).map_err(fail)?;
        for s in level.shapes {
            let rule = Rule {
                filter: s.filter,
                sensor: s.sensor,
            };
            scene
                .insert_as(s.id, s.shape, rule, s.fixed)
                .map_err(fail)?;
            scene.set_user_data(s.id, s.user_data);
        }
        scene.handles.refill();
        Ok(scene)
    }
}
