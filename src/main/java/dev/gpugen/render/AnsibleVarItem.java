package dev.gpugen.render;

/** An entry of the group_vars list: a variable, or a heading that starts a paragraph. */
sealed interface AnsibleVarItem permits AnsibleVar, AnsibleVar.Heading {}
