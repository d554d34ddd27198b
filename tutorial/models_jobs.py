"""Heavy work asked for and not yet done (tutorial/jobs.py): one row per job key.

The key names the job's result (``review:<table>:<hand>``, ``reprice:<table>:<hand>:<k>:<amount>``,
``move:<table>:<seq>``), so the same job asked twice is one row and runs once.  The row
goes when the job has stored its result; a failed job keeps its row (``failed``) until it
is asked again.
"""

from __future__ import annotations

from django.db import models


class ComputeJob(models.Model):
    key = models.CharField(max_length=200, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True)  # a worker took it (again after a retry)
    failed = models.BooleanField(default=False)

    def __str__(self) -> str:
        return self.key
