use crate::Grow;

pub struct Crop { // @def class Crop
    pub days: u32,
}

impl Crop { // @ref Crop>Crop
    pub fn seed(days: u32) -> Self { // @def method Crop.seed
        Crop { days } // @ref Crop>Crop
    }
}

impl Grow for Crop { // @ref Grow>Grow @ref Crop>Crop
    fn grow(&mut self, days: u32) { // @def method Crop.grow
        self.days += days;
    }
}

mod tests { // @def module tests
    use super::*;

    fn check() { // @def function tests.check
        let c = Crop::seed(1); // @ref Crop>Crop @ref seed>Crop.seed
        assert!(c.days == 1);
    }
}
