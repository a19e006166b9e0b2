[=header]
# Written by playbook runs, not by gpugen: validation reports and chart values, fact cache.
/reports/
/.cache/
