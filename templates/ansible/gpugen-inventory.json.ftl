<#if ansible.inventoryConfig?has_content>
[=json(ansible.inventoryConfig)]
</#if>
