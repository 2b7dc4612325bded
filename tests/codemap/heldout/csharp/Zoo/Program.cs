using Zoo.Animals;
using Pet = Zoo.Animals.Dog;

namespace Zoo // @def namespace Zoo
{
    public record Keeper(string Name); // @def class Zoo.Keeper

    public static class Program // @def class Zoo.Program
    {
        public static void Main() // @def method Zoo.Program.Main
        {
            var d = new Pet("rex"); // @ref Pet>Zoo.Animals.Dog
            var k = new Keeper("kim"); // @ref Keeper>Zoo.Keeper
            var c = new Dog.Collar(); // @ref Dog>Zoo.Animals.Dog @ref Collar>Zoo.Animals.Dog.Collar
            Console.WriteLine(d.Shout() + Animal.Count + c.Size + Describe(k)); // @ref Shout>Zoo.Animals.AnimalExtensions.Shout @ref Animal>Zoo.Animals.Animal @ref Describe>Zoo.Program.Describe
        }

        private static string Describe(Keeper k) => k.Name; // @def method Zoo.Program.Describe @ref Keeper>Zoo.Keeper
    }
}
