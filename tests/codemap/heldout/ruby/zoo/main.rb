require_relative "lib/animals"

def greet(animal) # @def method greet
  puts animal.shout # @ref shout>Zoo.Loud.shout
end

dog = Zoo::Dog.create("rex") # @ref Zoo>Zoo @ref Dog>Zoo.Dog @ref create>Zoo.Animal.create
greet(dog) # @ref greet>greet
