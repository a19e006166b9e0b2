[=header]
---
# Collections the roles use, at the versions they are tested with (Debian 12's ansible 7.7.0).
# Install: ansible-galaxy collection install -r requirements.yml
collections:
  - name: ansible.posix
    version: "1.5.4"
  - name: community.general
    version: "6.6.2"
  - name: kubernetes.core
    version: "2.4.0"
