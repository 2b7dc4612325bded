pub mod crops; // @def module crops

pub use crops::Crop as Plant;

macro_rules! acres { // @def macro acres
    ($n:expr) => {
        $n * 4
    };
}

pub trait Grow { // @def interface Grow
    fn grow(&mut self, days: u32); // @def method Grow.grow
    fn ready(&self) -> bool { // @def method Grow.ready
        false
    }
}

pub struct Field<T> { // @def class Field
    pub rows: Vec<T>,
}

impl<T: Grow> Field<T> { // @ref Grow>Grow @ref Field>Field
    pub fn new() -> Self { // @def method Field.new
        Field { rows: Vec::new() } // @ref Field>Field
    }

    pub fn tend(&mut self) { // @def method Field.tend
        for r in self.rows.iter_mut() {
            r.grow(acres!(1)); // @ref acres>acres @ref grow>Grow.grow
        }
    }
}

impl std::ops::Add for Field<crops::Crop> { // @ref Field>Field @ref Crop>Crop
    type Output = Self; // @def class Field.Output
    fn add(mut self, other: Self) -> Self { // @def method Field.add
        self.rows.extend(other.rows);
        self
    }
}

pub fn harvest<G: Grow>(items: &[G]) -> usize { // @def function harvest @ref Grow>Grow
    items.iter().filter(|g| g.ready()).count() // @ref ready>Grow.ready
}

pub const SEASON: u32 = 90; // @def constant SEASON

pub fn plant_all() -> Field<Plant> { // @def function plant_all @ref Field>Field @ref Plant>Crop
    let mut f = Field::new(); // @ref Field>Field @ref new>Field.new
    f.rows.push(crops::Crop::seed(SEASON)); // @ref Crop>Crop @ref seed>Crop.seed @ref crops>crops
    f.tend(); // @ref tend>Field.tend
    f
}
