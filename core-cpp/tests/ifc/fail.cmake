message(FATAL_ERROR "${MSG}")
