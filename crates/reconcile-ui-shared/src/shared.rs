//! `Shared<T>`: an `Rc` that compares by identity.
//!
//! Props holding one let a component skip re-rendering unless the value was
//! replaced, instead of comparing a whole timeline or plan on every render.

use std::ops::Deref;
use std::rc::Rc;

#[derive(Debug)]
pub struct Shared<T>(Rc<T>);

impl<T> Shared<T> {
    pub fn new(value: T) -> Self {
        Self(Rc::new(value))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Self(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> From<Rc<T>> for Shared<T> {
    fn from(rc: Rc<T>) -> Self {
        Self(rc)
    }
}
