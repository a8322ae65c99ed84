mod containers;
mod differential;
mod independent;
mod known_answers;
mod policy;
mod polygons;
mod rays;
mod scene;
