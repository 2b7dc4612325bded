package org.zoo.core; // @def package org.zoo.core

public abstract class Animal implements Comparable<Animal> { // @def class Animal @ref Animal>Animal
    protected final String name; // @def field Animal.name
    private static int created = 0; // @def field Animal.created

    protected Animal(String name) { // @def method Animal.Animal
        this.name = name;
        created++;
    }

    public abstract String sound(); // @def method Animal.sound

    public static int created() { // @def method Animal.created
        return created;
    }

    @Override
    public int compareTo(Animal other) { // @def method Animal.compareTo @ref Animal>Animal
        return name.compareTo(other.name);
    }

    public enum Size { SMALL, LARGE } // @def enum Animal.Size

    public interface Visitor<R> { // @def interface Animal.Visitor
        R visit(Animal a); // @def method Animal.Visitor.visit @ref Animal>Animal
    }
}
