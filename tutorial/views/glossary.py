"""``/glossary/``: every game term with pinyin, its one English rendering, a one-line
meaning and a link to where it is taught (content: ``tutorial/content/glossary.json``)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language

from tutorial import glossary
from tutorial.pagecache import visitor_independent


@visitor_independent
def glossary_page(request: HttpRequest) -> HttpResponse:
    english = (get_language() or "").startswith("en")
    terms = glossary.terms()
    context = {
        "english": english,
        "sections": [
            {"id": s.id, "title": s.title(english),
             "terms": [{"term": t, "meaning": t.meaning(english)}
                       for t in terms if t.section == s.id]}
            for s in glossary.sections()
        ],
    }
    return render(request, "glossary/glossary.html", context)
