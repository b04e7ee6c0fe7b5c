# SPDX-License-Identifier: GPL-2.0-only
"""Judges of the lab's scenarios, one module per scenario family.

Every module here (other than common) exports JUDGES: a list of (regex, function) pairs.
tests/lab/analyze gives each scenario id that the scenario files declare to the one judge
whose regex matches it in full, as function(d, sid, match) with d the directory dom0 wrote
(LAB_OUT/dom0) and match the re.Match of the id.  A judge returns a dict with at least
"id", "pass" (bool) and "reasons" (list of strings, empty when it passed); everything else
in it goes into lab-results.json as is.
"""
