"""A recipe step with the amounts of the ingredients it names (lines of bundled recipes)."""

from __future__ import annotations

from procmem.answerers.amounts import amount_line, ingredient_names, with_amounts
from procmem.extract.deterministic import extract_rules
from procmem.retrieval.query import terms

GALETTE = ["500g buckwheat flour", "1 egg", "70cl water"]
TACO_MEAT = ["1 pound (about 500 g) ground beef or turkey",
             "1 medium onion, finely chopped (or 1 1/2 teaspoon onion powder)",
             "1 medium tomato, chopped (or 1 small can of tomato sauce)", "1 teaspoon chili powder"]


def test_each_named_ingredient_gets_its_line_after_the_word_that_names_it():
    given: set[str] = set()
    step = with_amounts("Mix flour, salt, egg and water. (In this order to avoid dry flour)", GALETTE, given)
    assert step == ("Mix flour (500g buckwheat flour), salt, egg (1 egg) and water (70cl water). "
                    "(In this order to avoid dry flour)")
    assert given == set(GALETTE)
    # once per answer: a later step that names the flour again is left as it is
    assert with_amounts("Add more flour if the batter is thin.", GALETTE, given) == \
        "Add more flour if the batter is thin."


def test_a_line_names_its_ingredient_by_each_alternative_before_its_comma():
    assert ingredient_names(TACO_MEAT[0]) == set(terms("beef turkey"))
    assert ingredient_names(TACO_MEAT[1]) == set(terms("onion"))
    step = with_amounts("Brown beef and onion together. Drain grease.", TACO_MEAT, set())
    assert step == ("Brown beef (1 pound (about 500 g) ground beef or turkey) and onion (1 medium onion, "
                    "finely chopped (or 1 1/2 teaspoon onion powder)) together. Drain grease.")


def test_the_amount_follows_the_whole_name_the_line_gives():
    lines = ["Juice of 1/2 Lemon or 1 tsp of Vinegar", "2 tbsp olive oil"]
    assert with_amounts("Whisk the lemon juice with the olive oil.", lines, set()) == \
        "Whisk the lemon juice (Juice of 1/2 Lemon or 1 tsp of Vinegar) with the olive oil (2 tbsp olive oil)."


def test_words_that_do_not_name_the_listed_ingredient_are_left_alone():
    # a compound: the tomato sauce is not the fresh tomato
    step = "Add more tomato sauce if the mixture is dry."
    assert with_amounts(step, TACO_MEAT, set()) == step
    # an amount the step already gives, a word in parentheses
    for step in ("Add 700ml of chicken stock to the pot.", "Fry the pork (or the beef) until brown."):
        assert with_amounts(step, ["750ml chicken stock", "200g beef"], set()) == step
    # a word several lines name
    lines = ["87g rye flour", "250g all-purpose flour", "1 Tbsp of Chilli Powder", "Dash of Tumeric Powder"]
    for step in ("Flour the top of the loaf.", "Add the chilli powder and stir."):
        assert with_amounts(step, lines, set()) == step
    # a word after another ingredient's word: the turmeric's powder, not the chilli's
    lines = ["1 Tbsp of Chilli Powder", "A dash of turmeric"]
    assert with_amounts("Add the turmeric powder, then the chilli powder.", lines, set()) == \
        "Add the turmeric powder, then the chilli powder (1 Tbsp of Chilli Powder)."


def test_a_line_without_an_amount_or_a_long_note_is_no_amount():
    assert amount_line("Black pepper (optional)") == ""
    assert amount_line("A bunch of fresh parsley") == ""
    assert amount_line("[Fresh Bolognese sauce](/bolognese-sauce) or 1 litre of store-bought sauce") == \
        "Fresh Bolognese sauce or 1 litre of store-bought sauce"
    assert amount_line("~150g (1/3 lb) medium soft cheese. Appenzeller works best. Gruyère would do.") == \
        "~150g (1/3 lb) medium soft cheese"
    assert amount_line("½ tsp Turmeric") == "½ tsp Turmeric"


def test_a_recipes_units_keep_its_ingredient_lines(corpus):
    extraction = extract_rules(corpus.get("based-cooking/breton-crepes.md"))
    assert extraction.procedures[0].meta["ingredients"] == GALETTE
    step = with_amounts(extraction.procedures[0].steps[0], extraction.procedures[0].meta["ingredients"], set())
    assert "flour (500g buckwheat flour)" in step and "water (70cl water)" in step
