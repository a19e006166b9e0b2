[=json(terraform.inClusterTfvars)]
