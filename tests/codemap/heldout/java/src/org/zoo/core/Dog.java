package org.zoo.core; // @def package org.zoo.core

import java.util.function.Supplier;

public class Dog extends Animal { // @def class Dog @ref Animal>Animal
    public static final Supplier<Dog> FACTORY = () -> new Dog("rex"); // @def field Dog.FACTORY @ref Dog>Dog

    public Dog(String name) { // @def method Dog.Dog
        super(name);
    }

    public Dog() { // @def method Dog.Dog
        this("anon");
    }

    @Override
    public String sound() { // @def method Dog.sound
        return bark(2); // @ref bark>Dog.bark
    }

    private String bark(int times) { // @def method Dog.bark
        return "woof".repeat(times);
    }

    private String bark() { // @def method Dog.bark
        return bark(1); // @ref bark>Dog.bark
    }

    public <R> R accept(Animal.Visitor<R> v) { // @def method Dog.accept @ref Animal>Animal @ref Visitor>Animal.Visitor
        return v.visit(this); // @ref visit>Animal.Visitor.visit
    }
}
