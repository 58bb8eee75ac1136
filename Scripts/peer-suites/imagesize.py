"""The runner's module named ``imagesize``: imageprobe.compat under imagesize_py's name, as a
user switches with ``import imageprobe.compat as imagesize``. Scripts/peer-suites.sh puts it in
the test environment's site-packages."""
import sys

import imageprobe.compat

sys.modules[__name__] = imageprobe.compat
