"""``/glossary/``: every game term with pinyin, its one English rendering, a one-line
meaning and a link to where it is taught (content: ``tutorial/content/glossary.json``)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tutorial import glossary
from tutorial.language import english
from tutorial.pagecache import visitor_independent


@visitor_independent
def glossary_page(request: HttpRequest) -> HttpResponse:
    in_english = english()
    terms = glossary.terms()
    context = {
        "english": in_english,
        "sections": [
            {"id": s.id, "title": s.title(in_english),
             "terms": [{"term": t, "meaning": t.meaning(in_english)}
                       for t in terms if t.section == s.id]}
            for s in glossary.sections()
        ],
    }
    return render(request, "glossary/glossary.html", context)
