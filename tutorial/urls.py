"""URLs of the tutorial app.

One line per feature: add ``path("<feature>/", <view>, name="<feature>")`` (or an
``include``) and import its module from ``tutorial.views`` below.
"""

from django.urls import include, path

from tutorial.views import calc, chart, four, glossary, home, reference, splits, squeeze

urlpatterns = [
    path("table/", include("tutorial.views.table")),
    path("", home.home, name="home"),
    path("lang/", home.switch_language, name="switch_language"),
    path("calc/", calc.calc, name="calc"),
    path("night/", include("tutorial.views.night")),
    path("quiz/", include(("tutorial.views.quiz", "quiz"))),
    path("walkthroughs/", include("tutorial.views.walkthroughs")),
    path("course/", include("tutorial.views.course")),
    path("coach/", include("tutorial.views.coach")),
    path("accounts/", include("tutorial.views.accounts")),
    # reference pages: cards and 口诀, the pair catalogue, one pair, the rules
    path("cards/", reference.cards, name="cards"),
    path("pairs/", reference.pairs, name="pairs"),
    path("pairs/four/", four.four_page, name="four"),
    path("pairs/<str:code>/", reference.pair_detail, name="pair_detail"),
    path("rules/", reference.rules_page, name="rules"),
    path("rules/chart/", chart.chart, name="chart"),
    path("rules/app/", reference.rules_app_page, name="rules_app"),
    path("rules/compare/", reference.rules_compare_page, name="rules_compare"),
    path("splits/", splits.splits_page, name="splits"),
    path("splits/table/", splits.at_table, name="splits-table"),
    path("squeeze/", squeeze.squeeze_page, name="squeeze"),
    path("glossary/", glossary.glossary_page, name="glossary"),
]
