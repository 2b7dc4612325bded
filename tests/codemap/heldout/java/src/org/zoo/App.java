package org.zoo; // @def package org.zoo

import java.util.ArrayList;
import java.util.List;
import org.zoo.core.Animal;
import org.zoo.core.Dog;
import static org.zoo.core.Animal.created;

public class App { // @def class App
    static class Keeper { // @def class App.Keeper
        private final List<Animal> pen = new ArrayList<>(); // @def field App.Keeper.pen @ref Animal>Animal

        void admit(Animal a) { // @def method App.Keeper.admit @ref Animal>Animal
            pen.add(a);
        }
    }

    public static void main(String[] args) { // @def method App.main
        Keeper k = new Keeper(); // @ref Keeper>App.Keeper
        Dog d = Dog.FACTORY.get(); // @ref Dog>Dog
        k.admit(d); // @ref admit>App.Keeper.admit
        k.admit(new Dog()); // @ref admit>App.Keeper.admit @ref Dog>Dog
        Animal.Size s = Animal.Size.SMALL; // @ref Animal>Animal @ref Size>Animal.Size
        System.out.println(d.sound() + created() + s); // @ref sound>Dog.sound @ref created>Animal.created
    }
}
