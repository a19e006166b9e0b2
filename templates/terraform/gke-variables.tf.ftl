[=header]
#
# Every value a user may change without re-rendering; gpugen writes the spec's values into
# terraform.tfvars.json (override them in a file of your own, e.g. override.auto.tfvars).
<#list terraform.variables as section>
<#list section.variables as v>

[=v.block]
</#list>
</#list>
