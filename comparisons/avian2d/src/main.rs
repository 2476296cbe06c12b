//! Placeholder: the avian2d comparison is being written.
fn main() {}
