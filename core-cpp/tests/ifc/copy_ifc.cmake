# Copies mlx5_ifc.h (IN) to OUT, turning flexible array members "[]" into
# "[0]": g++ rejects a flexible array member inside a nested struct.  That is
# the only change.
file(READ "${IN}" text)
string(REPLACE "[]" "[0]" text "${text}")
file(WRITE "${OUT}" "${text}")
