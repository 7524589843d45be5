"""The workshop in a browser (``runarch-gen serve``): a Starlette application over the library.

:mod:`.app` (routes, pages, the JSON API), :mod:`.guard` (host, origin and body checks),
:mod:`.jobs` and :mod:`.worker` (decks, kits and playtests in worker processes),
:mod:`.boards` (board options from a query, the grid as SVG), :mod:`.i18n` (English and Czech);
templates and the page's own script and style sheet are package data. See docs/web.md.
"""
