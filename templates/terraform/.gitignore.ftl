<#if terraform.any>
[=header]
# What Terraform writes here and no one should commit: state (it holds every resource's
# attributes, secrets included), saved plans, and the provider/module cache from terraform init.
# The dependency lock file (.terraform.lock.hcl) is meant to be committed.
*.tfstate
*.tfstate.*
*.tfplan
tfplan
.terraform/
crash.log
crash.*.log
</#if>
