
output "instance_ids" {
  description = "Instance ids by node key."
  value       = { for key, i in aws_instance.this : key => i.id }
}

output "private_ips" {
  description = "Private IPv4 addresses by node key."
  value       = { for key, i in aws_instance.this : key => i.private_ip }
}

output "placement_group" {
  description = "Name of the pool's placement group; null without one."
  value       = one(aws_placement_group.this[*].name)
}

output "launch_template_id" {
  description = "Id of the pool's launch template."
  value       = aws_launch_template.this.id
}

# The resource objects themselves, for a caller that composes on them (and for the plan tests,
# whose assertions can read a module's outputs only).
output "instances" {
  description = "The pool's aws_instance objects by node key."
  value       = aws_instance.this
}

output "launch_template" {
  description = "The pool's aws_launch_template object."
  value       = aws_launch_template.this
}
