[=json(inventory.config)]
