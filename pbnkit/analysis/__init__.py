"""Double-dummy analysis: what each declarer can make in each strain, and the par.

The tables and the par are plain values (:mod:`pbnkit.analysis.tables`) that read and
write the PBN tags ``OptimumResultTable``, ``OptimumScore`` and ``ParContract``. The
solving itself (:mod:`pbnkit.analysis.solver`) needs the optional ``dd`` extra
(``pip install 'pbnkit[dd]'``), which brings Bo Haglund's DDS through endplay's binding.

Those modules sit beside the model: they read the model's values and PBN tags, nothing
above. :mod:`pbnkit.analysis.annotate` (``pbnkit analyze``) also writes files, at the
level of :mod:`pbnkit.export`; the checks of ``validate --dd`` are a rules module,
:mod:`pbnkit.rules.double_dummy`.
"""

from pbnkit.analysis.tables import Par, ParContract, TrickTable

__all__ = ["Par", "ParContract", "TrickTable"]
