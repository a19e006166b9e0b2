[=json(terraform.tfvars)]
