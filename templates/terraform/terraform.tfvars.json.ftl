<#if terraform.any>
[=json(terraform.tfvars)]
</#if>
