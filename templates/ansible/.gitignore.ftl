[=header]
# Written by playbook runs, not by gpugen: validation reports and chart values, fact cache.
/reports/
/.cache/
# The cluster's SSH key for mpirun (play 05), generated at run time: never commit it.
/.mpi-ssh/
