An orchard festival drew visitors.
