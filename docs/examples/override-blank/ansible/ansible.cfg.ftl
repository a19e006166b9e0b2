<#if false>never</#if>
