//! `Shared<T>`, an `Rc` that compares by identity: one copy for the page and
//! the apps it loads on demand, in `reconcile-ui-shared`.

pub use reconcile_ui_shared::Shared;
