mod containers;
mod differential;
mod independent;
mod known_answers;
mod policy;
mod scene;
