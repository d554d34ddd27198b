"""URLs of the tutorial app.

One line per feature: add ``path("<feature>/", <view>, name="<feature>")`` (or an
``include``) and import its module from ``tutorial.views`` below.
"""

from django.urls import include, path

from tutorial.views import home

urlpatterns = [
    path("", home.home, name="home"),
    path("quiz/", include(("tutorial.views.quiz", "quiz"))),
]
