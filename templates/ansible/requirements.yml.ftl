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
<#if ansible.ssmConnection>
  # The SSM connection plugin, community.aws.aws_ssm (connection ssm; it also needs boto3 and
  # botocore, the AWS CLI and AWS's session-manager-plugin on the controller).
  - name: community.aws
    version: "5.5.0"
</#if>
