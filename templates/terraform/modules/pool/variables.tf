#
# The module's inputs: one pool of the root's var.pools (validated there), and what every pool
# shares (image, subnet, security group, instance profile, IMDS settings, tags).

variable "name" {
  description = "The pool's name as the spec writes it: the gpugen:pool tag."
  type        = string
}

variable "instance_type" {
  description = "EC2 instance type of every node."
  type        = string
}

variable "market" {
  description = "on-demand, spot (one-time requests, terminated on interruption), or capacity-block (an EC2 Capacity Block for ML, terminated when the block ends)."
  type        = string
}

variable "capacity_reservation_id" {
  description = "The Capacity Reservation the nodes launch into (a Capacity Block's, or a targeted On-Demand one); null for none."
  type        = string
}

variable "nodes" {
  description = "The nodes: stable key (\"0\", \"1\", ...) to Name tag. Removing a key removes that node only."
  type        = map(string)
}

variable "placement_group" {
  description = "Name of the pool's placement group; null for none."
  type        = string
}

variable "placement_strategy" {
  description = "Strategy of the placement group: cluster, partition or spread; none for no group."
  type        = string
}

variable "launch_template_name_prefix" {
  description = "Start of the launch template's name; AWS adds a unique suffix."
  type        = string
}

variable "network_interfaces" {
  description = "One interface per network card, in card order: interface_type efa, efa-only, or null for ENA."
  type = list(object({
    network_card_index = number
    interface_type     = string
  }))
}

variable "root_volume" {
  description = "The nodes' root disk."
  type = object({
    type       = string
    size_gib   = number
    iops       = number
    throughput = number
    encrypted  = bool
  })
}

variable "user_data" {
  description = "Base64 user data the nodes run at first boot; null for none."
  type        = string
}

variable "ami_id" {
  description = "The image the nodes boot."
  type        = string
}

variable "subnet_id" {
  description = "The subnet of every interface."
  type        = string
}

variable "security_group_ids" {
  description = "Security groups of every interface."
  type        = list(string)
}

variable "iam_instance_profile" {
  description = "Instance profile of the nodes."
  type        = string
}

variable "key_name" {
  description = "EC2 key pair for SSH; null for none."
  type        = string
}

variable "kms_key_id" {
  description = "KMS key of the root volumes; null for the AWS managed key."
  type        = string
}

variable "metadata_http_tokens" {
  description = "IMDS session tokens: required (IMDSv2 only) or optional."
  type        = string
}

variable "metadata_hop_limit" {
  description = "IMDSv2 response hop limit."
  type        = number
}

variable "instance_metadata_tags" {
  description = "Whether instance metadata serves the node's tags (enabled, disabled); null leaves it to EC2."
  type        = string
}

variable "tags" {
  description = "Tags of the launch template's volumes and interfaces, and of the nodes."
  type        = map(string)
}

variable "node_tags" {
  description = "More tags on the nodes only (the Lustre address, the SSM bucket, EKS ownership)."
  type        = map(string)
}

variable "role" {
  description = "null for a GPU pool; system for EKS's system pool (the gpugen:role tag, which the inventory leaves out)."
  type        = string
  default     = null
}

variable "settings" {
  description = "What the nodes are launched with and cannot change in place (the root module builds them in pools.tf); a change replaces every node."
  type = object({
    capacity_reservation_id     = string
    image                       = string
    instance_type               = string
    kms_key_id                  = string
    kubernetes_version          = string
    launch_template_name_prefix = string
    market                      = string
    network_interfaces = list(object({
      interface_type     = string
      network_card_index = number
    }))
    placement_group       = string
    root_volume_encrypted = bool
    ssh_key_name          = string
    subnet                = string
  })
}
