[=header]
---
# ansible-lint settings for this folder: the production profile the generated roles pass, and
# the run outputs (reports, fact cache), which are not Ansible content.
profile: production
exclude_paths:
  - reports/
  - .cache/
