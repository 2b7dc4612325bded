module Zoo # @def module Zoo
  module Loud # @def module Zoo.Loud
    def shout # @def method Zoo.Loud.shout
      sound.upcase
    end
  end

  class Animal # @def class Zoo.Animal
    attr_reader :name

    def initialize(name) # @def method Zoo.Animal.initialize
      @name = name
    end

    def self.create(name) # @def method Zoo.Animal.create
      new(name)
    end

    def sound # @def method Zoo.Animal.sound
      "..."
    end
  end

  class Dog < Animal # @def class Zoo.Dog @ref Animal>Zoo.Animal
    include Loud # @ref Loud>Zoo.Loud

    def sound # @def method Zoo.Dog.sound
      bark(2) # @ref bark>Zoo.Dog.bark
    end

    private

    def bark(times) # @def method Zoo.Dog.bark
      "woof" * times
    end
  end
end
