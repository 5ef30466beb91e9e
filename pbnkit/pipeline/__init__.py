"""The one pipeline every command and the public calls go through: plan the units of
the input (a file, or a chunk of a large one), map each with a pure, module-level
function (the same one inline, in a pool of processes or on Dask), merge the results
file by file in unit order, write.

``units`` and ``runs`` plan (and choose the engine), ``engines`` maps, ``collector``
holds the garbage-collector policy of every run; ``validate``, ``score`` and
``convert`` hold each command's map function and merge, and the public calls
:func:`pbnkit.validate`, :func:`pbnkit.score` and :func:`pbnkit.convert`. The domain packages below (rules, scoring, export) are pure
functions of records and units: they never import this one.
"""
