[=header]
#
# Every value a user may change without re-rendering. gpugen writes the spec's values into
# terraform.tfvars.json; to change one without editing the spec, set it in a file of your own
# (e.g. override.auto.tfvars, which Terraform reads after terraform.tfvars.json and gpugen never
# touches). The validation blocks repeat AWS's rules, so a bad value fails at plan time.
<#list terraform.variables as section>

################################################################################
# [=comment(section.title)]
################################################################################
<#list section.variables as v>

[=v.block]
</#list>
</#list>
