"""Small test sets written for the page "Evaluating LLMs" (``book/llm_training/evaluation.ipynb``).

The public benchmarks are not shipped offline, and a model may have seen them during pretraining; these
items were written for this book, in the style of the benchmarks they imitate:

* :data:`MC_ITEMS`: multiple-choice questions with four options each, in the style of MMLU (a question, an
  answer) and HellaSwag (a situation, its most sensible continuation); the options differ in length.
* :data:`FACTS`: a question, the start of a statement, its true ending and a fluent false one.
* :data:`ARITHMETIC`: one- and two-step arithmetic word problems with whole-number answers.

A data definition: nothing here depends on a seed or on a model.
"""

from __future__ import annotations

__all__ = ["ARITHMETIC", "FACTS", "MC_ITEMS"]

# (context, options, index of the right option). Options start with a space: they continue the context.
# The right option is the longest in some items and the shortest in others, so that length alone does not
# give the answer away.
MC_ITEMS: list[tuple[str, tuple[str, ...], int]] = [
    (
        "Question: What is the boiling point of water at sea level?\nAnswer:",
        (" 50 degrees Celsius", " 100 degrees Celsius", " 0 degrees Celsius", " 1000 degrees Celsius"),
        1,
    ),
    (
        "Question: Which planet is known as the Red Planet?\nAnswer:",
        (" Venus, the hottest planet", " Mars", " Jupiter, the largest planet", " Saturn, the ringed planet"),
        1,
    ),
    (
        "Question: Why do we see lightning before we hear thunder?\nAnswer:",
        (
            " Because thunder is made later",
            " Because light travels faster than sound",
            " Because sound travels faster than light",
            " Because the clouds block the sound",
        ),
        1,
    ),
    (
        "Question: What do plants need to make their food by photosynthesis?\nAnswer:",
        (" Salt and sand", " Darkness and cold air", " Sunlight, water and carbon dioxide", " Milk"),
        2,
    ),
    (
        "Question: How many legs does a spider have?\nAnswer:",
        (" Six legs, like all insects", " Eight", " Ten legs and two arms", " Four legs and a tail"),
        1,
    ),
    (
        "Question: What is the main function of the heart?\nAnswer:",
        (" To digest food", " To pump blood", " To help us think and remember things", " To store fat"),
        1,
    ),
    (
        "Question: Which gas do humans need to breathe in to stay alive?\nAnswer:",
        (" Helium", " Carbon dioxide from the air around us", " Oxygen", " Nitrogen, which makes up most of the air"),
        2,
    ),
    (
        "Question: What causes the seasons on Earth?\nAnswer:",
        (
            " The distance between the Earth and the Moon",
            " The tilt of the Earth's axis",
            " The number of clouds in the sky",
            " Volcanoes",
        ),
        1,
    ),
    (
        "Question: What is the largest mammal?\nAnswer:",
        (" The African elephant", " The blue whale", " The giraffe, because of its long neck", " The mouse"),
        1,
    ),
    (
        "Question: What is frozen water called?\nAnswer:",
        (" Steam rising from a pot", " Fog over the sea", " Ice", " Rain falling from clouds"),
        2,
    ),
    (
        "Question: What is the purpose of a vaccine?\nAnswer:",
        (" To cure a broken leg", " To train the immune system", " To add vitamins to food", " To numb pain"),
        1,
    ),
    (
        "Question: Which organ do we use to breathe?\nAnswer:",
        (" The lungs", " The stomach, which fills with air", " The liver", " The kidneys, which clean the air"),
        0,
    ),
    (
        "A man is standing in the kitchen with a knife and an onion. He",
        (
            " flies out of the window.",
            " cuts the onion into small pieces.",
            " sings a song to the onion.",
            " swims to the shop.",
        ),
        1,
    ),
    (
        "The little girl drops her ice cream on the ground. She",
        (
            " laughs at the moon and goes to sleep.",
            " starts to cry.",
            " drives a bus to the beach.",
            " becomes a tree in the park.",
        ),
        1,
    ),
    (
        "It starts to rain heavily while Anna is walking to work, so she",
        (" eats a sandwich.", " opens her umbrella.", " paints the sky blue.", " takes off her coat and shoes."),
        1,
    ),
    (
        "The baker puts the bread dough into the hot oven and",
        (
            " reads it a bedtime story.",
            " waits for it to bake.",
            " sells the oven to a friend.",
            " the dough swims away.",
        ),
        1,
    ),
    (
        "After running a marathon, the tired runner",
        (" runs another one at once.", " sits down to rest.", " turns blue and green.", " flies home."),
        1,
    ),
    (
        "The students open their books and the teacher",
        (
            " melts into the floor.",
            " begins the lesson.",
            " is a cat.",
            " leaves the school forever and never comes back.",
        ),
        1,
    ),
    (
        "The phone battery is almost empty, so Sam",
        (" throws the phone into a lake.", " eats the battery.", " plugs in the charger.", " runs to the moon."),
        2,
    ),
    (
        "The soup is too hot to eat, so the boy",
        (" puts it in the oven to warm it up.", " sings to it.", " drinks it all at once.", " waits for it to cool."),
        3,
    ),
]

# (question, start of a statement, true ending, false ending): the endings start with a space.
FACTS: list[tuple[str, str, str, str]] = [
    ("What is the capital of Australia?", "The capital of Australia is", " Canberra", " Sydney"),
    (
        "Who was the first person to walk on the Moon?",
        "The first person to walk on the Moon was",
        " Neil Armstrong",
        " Buzz Aldrin",
    ),
    ("What is the chemical symbol for gold?", "The chemical symbol for gold is", " Au", " Ag"),
    ("Which planet is closest to the Sun?", "The planet closest to the Sun is", " Mercury", " Venus"),
    ("Who painted the Mona Lisa?", "The Mona Lisa was painted by", " Leonardo da Vinci", " Michelangelo"),
    ("What is the currency of Japan?", "The currency of Japan is the", " yen", " won"),
    ("Who wrote Pride and Prejudice?", "Pride and Prejudice was written by", " Jane Austen", " Charlotte Brontë"),
    ("In which country was Albert Einstein born?", "Albert Einstein was born in", " Germany", " Switzerland"),
    ("What is the largest ocean on Earth?", "The largest ocean on Earth is the", " Pacific", " Atlantic"),
    ("How many bones does an adult human have?", "An adult human has", " 206 bones", " 300 bones"),
    ("What is the tallest mountain on Earth?", "The tallest mountain on Earth is Mount", " Everest", " Kilimanjaro"),
    ("What is the longest river in Africa?", "The longest river in Africa is the", " Nile", " Congo"),
]

# (problem, answer)
ARITHMETIC: list[tuple[str, int]] = [
    ("Tom has 3 apples and buys 5 more. How many apples does he have now?", 8),
    ("A box holds 12 pencils. Mia gives away 4 of them. How many pencils are left in the box?", 8),
    ("There are 4 cars in a car park and each car has 4 wheels. How many wheels are there in all?", 16),
    ("Sara reads 10 pages a day. How many pages does she read in 6 days?", 60),
    ("A farmer has 20 eggs and puts them into boxes of 5. How many boxes does he fill?", 4),
    ("Leo had 15 marbles. He lost 6 and then found 4. How many marbles does he have now?", 13),
    ("A ticket costs 7 dollars. How much do 3 tickets cost, in dollars?", 21),
    ("Anna is 9 years old. Her brother is 4 years older. How old will her brother be in 2 years?", 15),
    ("A class has 14 girls and 11 boys. How many children are in the class?", 25),
    ("Ben buys 2 packs of 6 eggs and breaks 3 of them. How many eggs are not broken?", 9),
    ("A train travels 60 kilometres in one hour. How far does it travel in 3 hours, in kilometres?", 180),
    ("Kim has 30 stickers and shares them equally among 5 friends. How many stickers does each friend get?", 6),
    ("A shop sells 8 cakes in the morning and twice as many in the afternoon. How many cakes does it sell in all?", 24),
    ("Max saves 5 dollars every week. How many weeks does he need to save 35 dollars?", 7),
    ("There are 3 rows of chairs with 7 chairs in each row. If 5 chairs are taken, how many are free?", 16),
    (
        "Lily had 50 dollars. She spent 18 dollars on a book and 12 dollars on lunch. How many dollars does she have "
        "left?",
        20,
    ),
]
