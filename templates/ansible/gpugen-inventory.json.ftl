[=json(ansible.inventoryConfig)]
