"""``beggar-search report``: a static web site of a results file.

``data`` reads what the pages show through the store's checked readers, ``replay``
plays the replays and cycle states with the engine, ``layout`` places the family graph,
``site`` writes pages (Jinja2 templates, autoescaped), static files and data files, and
``serve`` serves a written site on 127.0.0.1.
"""
