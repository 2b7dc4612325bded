using System;
using System.Collections.Generic;

namespace Zoo.Animals; // @def namespace Zoo.Animals

public interface IAnimal // @def interface Zoo.Animals.IAnimal
{
    string Sound(); // @def method Zoo.Animals.IAnimal.Sound
}

public abstract class Animal : IAnimal // @def class Zoo.Animals.Animal @ref IAnimal>Zoo.Animals.IAnimal
{
    public string Name { get; protected set; } // @def property Zoo.Animals.Animal.Name
    public abstract string Sound(); // @def method Zoo.Animals.Animal.Sound
    public static int Count; // @def field Zoo.Animals.Animal.Count

    protected Animal(string name) // @def method Zoo.Animals.Animal.Animal
    {
        Name = name;
        Count++;
    }

    public static Animal operator +(Animal a, Animal b) => a; // @def method Zoo.Animals.Animal.operator+ @ref Animal>Zoo.Animals.Animal
}

public sealed class Dog : Animal // @def class Zoo.Animals.Dog @ref Animal>Zoo.Animals.Animal
{
    public Dog(string name) : base(name) { } // @def method Zoo.Animals.Dog.Dog

    public override string Sound() => Bark(1); // @def method Zoo.Animals.Dog.Sound @ref Bark>Zoo.Animals.Dog.Bark

    private string Bark(int times) => string.Concat(Repeat("woof", times)); // @def method Zoo.Animals.Dog.Bark @ref Repeat>Zoo.Animals.Dog.Repeat

    private static IEnumerable<string> Repeat(string s, int n) // @def method Zoo.Animals.Dog.Repeat
    {
        for (var i = 0; i < n; i++) yield return s;
    }

    public class Collar // @def class Zoo.Animals.Dog.Collar
    {
        public int Size => 3; // @def property Zoo.Animals.Dog.Collar.Size
    }
}

public static class AnimalExtensions // @def class Zoo.Animals.AnimalExtensions
{
    public static string Shout(this IAnimal a) => a.Sound().ToUpper(); // @def method Zoo.Animals.AnimalExtensions.Shout @ref IAnimal>Zoo.Animals.IAnimal
}
