set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=$OUT/final; mkdir -p $R
python3 -m pip install -q --no-index --find-links .pywheels pyroaring 2>/dev/null || python3 -m pip install -q --break-system-packages --no-index --find-links .pywheels pyroaring
(VKALGO_TEST_NO_VALIDATION=1 VKALGO_REQUIRE_PYROARING=1 timeout 400 .vx/set-tests --test-threads=1 > $R/set-tests.txt 2>&1; echo "set tests exit $?" >> $R/set-tests.txt)
tail -3 $R/set-tests.txt
