"""Claims (§8.3): short falsifiable insights whose confidence grows with repetition."""
