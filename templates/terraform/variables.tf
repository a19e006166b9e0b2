#
# Every value a user may change without re-rendering. gpugen writes the spec's values into
# terraform.tfvars.json; to change one without editing the spec, set it in a file of your own
# (e.g. override.auto.tfvars, which Terraform reads after terraform.tfvars.json and gpugen never
# touches). The validation blocks repeat AWS's rules, so a bad value fails at plan time.

################################################################################
# Cluster
################################################################################

variable "cluster_name" {
  description = "Cluster name: the gpugen:cluster tag and the start of every resource name."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,38}$", var.cluster_name)) && !can(regex("^(con|prn|aux|nul|com[1-9]|lpt[1-9])$", var.cluster_name))
    error_message = "The cluster_name must be a name of lower-case letters, digits and '-' (1-39 chars, starting with a letter; not con, nul, aux...)."
  }
}

variable "environment" {
  description = "Environment (dev, prod, ...): the gpugen:environment tag and a suffix of resource names. null for none."
  type        = string
  default     = null

  validation {
    condition     = var.environment == null ? true : (can(regex("^[a-z][a-z0-9-]{0,30}$", var.environment)) && !can(regex("^(con|prn|aux|nul|com[1-9]|lpt[1-9])$", var.environment)))
    error_message = "The environment must be an environment name of lower-case letters, digits and '-' (1-31 chars)."
  }
}

variable "qualified_name" {
  description = "Start of every resource name: cluster_name, plus -environment when there is one (gpugen's plan writes it)."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,70}$", var.qualified_name))
    error_message = "The qualified_name must be 1-71 lower-case letters, digits and '-', starting with a letter."
  }
}

variable "region" {
  description = "AWS region of every resource, e.g. us-east-1."
  type        = string

  validation {
    condition     = can(regex("^[a-z]{2,16}(-[a-z]+)+-?[0-9]{1,2}$", var.region)) && length(var.region) <= 32
    error_message = "The region must be a region like us-east-1, us-central1 or europe-west4."
  }
}

variable "availability_zone" {
  description = "The one availability zone of the new subnet; a cluster placement group and EFA traffic stay inside one zone."
  type        = string

  validation {
    condition     = can(regex("^[a-z]{2,16}(-[a-z]+)+-?[0-9]{1,2}([a-z]|-[a-z]|(-[a-z0-9]+)+)$", var.availability_zone)) && length(var.availability_zone) <= 40
    error_message = "The availability_zone must be a zone like us-east-1a or us-central1-a."
  }
}

variable "ssh_key_name" {
  description = "An existing EC2 key pair for SSH to the nodes; null for none (reach them through SSM Session Manager)."
  type        = string
  default     = null

  validation {
    condition     = var.ssh_key_name == null ? true : can(regex("^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$", var.ssh_key_name))
    error_message = "The ssh_key_name must be an EC2 key pair name (letters, digits, '.', '_', '-')."
  }
}

variable "image" {
  description = "Node image: ubuntu-22.04 or ubuntu-24.04 (the newest Canonical AMI, looked up by owner) or an ami-... id."
  type        = string
  default     = "ubuntu-22.04"

  validation {
    condition     = can(regex("^(ubuntu-22\\.04|ubuntu-24\\.04|ami-[0-9a-f]{8,17})$", var.image))
    error_message = "The image must be ubuntu-22.04, ubuntu-24.04 or an ami-... id."
  }
}

variable "metadata_http_tokens" {
  description = "IMDS session tokens: required (IMDSv2 only, the secure default; CKV_AWS_79, AVD-AWS-0028). optional re-enables IMDSv1, which gpugen's linter refuses (sec-imdsv1-enabled) unless that rule is skipped on purpose."
  type        = string
  default     = "required"

  validation {
    condition     = contains(["required", "optional"], var.metadata_http_tokens)
    error_message = "The metadata_http_tokens must be one of required, optional."
  }
}

variable "metadata_hop_limit" {
  description = "IMDSv2 response hop limit. 1 keeps containers in their own network namespace (bridge or overlay networks) from reaching the node's metadata and its IAM role; raise it to 2 only for containers that must read instance metadata."
  type        = number
  default     = 1

  validation {
    condition     = var.metadata_hop_limit >= 1 && var.metadata_hop_limit <= 64 && floor(var.metadata_hop_limit) == var.metadata_hop_limit
    error_message = "The metadata_hop_limit must be an integer from 1 to 64."
  }
}

variable "kms_key_id" {
  description = "ARN of a customer managed KMS key for the root volumes, the Lustre file system (PERSISTENT types) and the checkpoint bucket; null for AWS managed keys."
  type        = string
  default     = null

  validation {
    condition     = var.kms_key_id == null ? true : can(regex("^arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:key/[0-9a-z-]+$", var.kms_key_id))
    error_message = "The kms_key_id must be a KMS key ARN (arn:aws:kms:REGION:ACCOUNT:key/ID), not an alias: AWS reports the key's ARN, so an alias would replace every node and the Lustre file system on every apply (the key's ARN: aws kms describe-key --key-id alias/NAME --query KeyMetadata.Arn)."
  }
}

variable "iam_permissions_boundary" {
  description = "ARN of an IAM policy to set as the permissions boundary of the node role, where the account requires one; null for none."
  type        = string
  default     = null

  validation {
    condition     = var.iam_permissions_boundary == null ? true : can(regex("^arn:aws[a-z-]*:iam::([0-9]{12}|aws):policy/.+$", var.iam_permissions_boundary))
    error_message = "The iam_permissions_boundary must be an IAM policy ARN."
  }
}

################################################################################
# Network
################################################################################

variable "vpc_cidr" {
  description = "CIDR of the VPC gpugen creates; null when vpc_id names an existing VPC."
  type        = string
  default     = null

  validation {
    condition     = var.vpc_cidr == null ? true : can(regex("^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}/(3[0-2]|[12]?[0-9])$", var.vpc_cidr))
    error_message = "The vpc_cidr must be an IPv4 CIDR like 10.42.0.0/16."
  }

  validation {
    condition = var.vpc_cidr == null ? true : alltrue([
      can(cidrnetmask(var.vpc_cidr)),
      try(cidrsubnet(var.vpc_cidr, 0, 0) == var.vpc_cidr, false),
      try(tonumber(split("/", var.vpc_cidr)[1]) >= 16 && tonumber(split("/", var.vpc_cidr)[1]) <= 28, false),
    ])
    error_message = "The vpc_cidr must be an IPv4 network address with a prefix from /16 to /28, like 10.42.0.0/16."
  }
}

variable "subnet_cidr" {
  description = "CIDR of the node subnet gpugen creates, inside vpc_cidr; null when subnet_id names an existing subnet."
  type        = string
  default     = null

  validation {
    condition     = var.subnet_cidr == null ? true : can(regex("^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}/(3[0-2]|[12]?[0-9])$", var.subnet_cidr))
    error_message = "The subnet_cidr must be an IPv4 CIDR like 10.42.0.0/16."
  }

  validation {
    condition = var.subnet_cidr == null ? true : alltrue([
      can(cidrnetmask(var.subnet_cidr)),
      try(cidrsubnet(var.subnet_cidr, 0, 0) == var.subnet_cidr, false),
      try(tonumber(split("/", var.subnet_cidr)[1]) >= 16 && tonumber(split("/", var.subnet_cidr)[1]) <= 28, false),
    ])
    error_message = "The subnet_cidr must be an IPv4 network address with a prefix from /16 to /28, like 10.42.0.0/20."
  }
}

variable "vpc_id" {
  description = "An existing VPC to use instead of creating one (with subnet_id); null to create one."
  type        = string
  default     = null

  validation {
    condition     = var.vpc_id == null ? true : can(regex("^vpc-[0-9a-f]{8,17}$", var.vpc_id))
    error_message = "The vpc_id must be a VPC id like vpc-0abc12345def67890."
  }
}

variable "subnet_id" {
  description = "An existing subnet of vpc_id for the nodes and the Lustre file system; null to create one."
  type        = string
  default     = null

  validation {
    condition     = var.subnet_id == null ? true : can(regex("^subnet-[0-9a-f]{8,17}$", var.subnet_id))
    error_message = "The subnet_id must be a subnet id like subnet-0abc12345def67890."
  }
}

variable "ssh_ingress_cidrs" {
  description = "IPv4 CIDRs allowed to reach the nodes on TCP 22; empty for no SSH (use SSM Session Manager)."
  type        = list(string)
  default     = []

  validation {
    condition     = length(var.ssh_ingress_cidrs) <= 32 && alltrue([for i in var.ssh_ingress_cidrs : can(regex("^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}/(3[0-2]|[12]?[0-9])$", i))])
    error_message = "The ssh_ingress_cidrs must be a list of at most 32 of an IPv4 CIDR like 10.42.0.0/16."
  }

  validation {
    condition     = alltrue([for c in var.ssh_ingress_cidrs : can(cidrnetmask(c)) && try(cidrsubnet(c, 0, 0) == c, false)])
    error_message = "Every ssh_ingress_cidrs entry must be an IPv4 network address with a prefix, like 203.0.113.0/24."
  }
}

variable "enable_nat_gateway" {
  description = "Give the nodes of a VPC that gpugen creates a path to the internet (package repositories, NGC, SSM): a NAT gateway in a small public subnet. The nodes never get public addresses."
  type        = bool
  default     = false
}

variable "public_subnet_cidr" {
  description = "CIDR of the public subnet that holds the NAT gateway; null for the last /28 of vpc_cidr."
  type        = string
  default     = null

  validation {
    condition = var.public_subnet_cidr == null ? true : alltrue([
      can(cidrnetmask(var.public_subnet_cidr)),
      try(cidrsubnet(var.public_subnet_cidr, 0, 0) == var.public_subnet_cidr, false),
      try(tonumber(split("/", var.public_subnet_cidr)[1]) >= 16 && tonumber(split("/", var.public_subnet_cidr)[1]) <= 28, false),
    ])
    error_message = "The public_subnet_cidr must be an IPv4 network address with a prefix from /16 to /28."
  }
}

variable "vpc_interface_endpoints" {
  description = "AWS services the nodes reach through VPC interface endpoints with private DNS (ssm, ssmmessages, ec2messages for Session Manager without a NAT gateway; ec2 for pull mode's self-tagging; ec2, ecr.api, ecr.dkr, eks, eks-auth, sts for a private EKS cluster)."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for s in var.vpc_interface_endpoints : contains(["ssm", "ssmmessages", "ec2messages", "ec2", "ecr.api", "ecr.dkr", "eks", "eks-auth", "sts"], s)])
    error_message = "The vpc_interface_endpoints may list ssm, ssmmessages, ec2messages, ec2, ecr.api, ecr.dkr, eks, eks-auth and sts."
  }
}

variable "ssm_bucket_prefix" {
  description = "Start of the name of the S3 bucket the SSM connection moves files through (connection ssm), which ends with the account id and the region; null for no bucket."
  type        = string
  default     = null

  validation {
    condition     = var.ssm_bucket_prefix == null ? true : can(regex("^[a-z0-9][a-z0-9.-]{0,36}$", var.ssm_bucket_prefix))
    error_message = "The ssm_bucket_prefix must be up to 37 characters of a-z, 0-9, '.' and '-'."
  }
}

variable "allow_web_egress" {
  description = "Let the nodes open HTTPS and HTTP connections to any address (package repositories, NGC, SSM, S3). false limits them to each other, the Lustre file system and S3 through the VPC endpoint."
  type        = bool
  default     = true
}

variable "placement_strategy" {
  description = "EC2 placement group strategy of each pool: cluster (one rack row, lowest latency: multi-node training), partition, spread or none."
  type        = string
  default     = "cluster"

  validation {
    condition     = contains(["cluster", "partition", "spread", "none"], var.placement_strategy)
    error_message = "The placement_strategy must be one of cluster, partition, spread, none."
  }
}

################################################################################
# Storage
################################################################################

variable "lustre_enabled" {
  description = "Create an FSx for Lustre file system in the node subnet."
  type        = bool
  default     = false
}

variable "lustre_capacity_gib" {
  description = "FSx for Lustre capacity in GiB: 1200, 2400 or a multiple of 2400 (SCRATCH_1: 1200, 2400 or a multiple of 3600). null without a file system (storage.tf's precondition asks for one with it)."
  type        = number
  default     = null

  validation {
    condition     = var.lustre_capacity_gib == null ? true : (var.lustre_capacity_gib >= 1200 && var.lustre_capacity_gib <= 2000000 && floor(var.lustre_capacity_gib) == var.lustre_capacity_gib)
    error_message = "The lustre_capacity_gib must be an integer from 1200 to 2000000."
  }
}

variable "lustre_deployment_type" {
  description = "FSx for Lustre deployment type."
  type        = string
  default     = "PERSISTENT_2"

  validation {
    condition     = contains(["SCRATCH_1", "SCRATCH_2", "PERSISTENT_1", "PERSISTENT_2"], var.lustre_deployment_type)
    error_message = "The lustre_deployment_type must be one of SCRATCH_1, SCRATCH_2, PERSISTENT_1, PERSISTENT_2."
  }
}

variable "lustre_per_unit_storage_throughput" {
  description = "MB/s per TiB of storage: PERSISTENT_1 50, 100 or 200; PERSISTENT_2 125, 250, 500 or 1000 (storage.tf's precondition); null for SCRATCH types."
  type        = number
  default     = null

  validation {
    condition     = var.lustre_per_unit_storage_throughput == null ? true : (var.lustre_per_unit_storage_throughput >= 12 && var.lustre_per_unit_storage_throughput <= 1000 && floor(var.lustre_per_unit_storage_throughput) == var.lustre_per_unit_storage_throughput)
    error_message = "The lustre_per_unit_storage_throughput must be an integer from 12 to 1000."
  }
}

variable "lustre_mount_point" {
  description = "Where the nodes mount the file system (used by the Ansible roles; an output here)."
  type        = string
  default     = "/fsx"

  validation {
    condition     = can(regex("^/([A-Za-z0-9_-][A-Za-z0-9._-]*)(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$", var.lustre_mount_point)) && length(var.lustre_mount_point) <= 255
    error_message = "The lustre_mount_point must be an absolute path like /fsx (no '..', spaces or quotes)."
  }
}

variable "checkpoint_bucket" {
  description = "Name of the S3 bucket gpugen creates for checkpoints (versioned, encrypted, never public); null for none."
  type        = string
  default     = null

  validation {
    condition     = var.checkpoint_bucket == null ? true : can(regex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", var.checkpoint_bucket))
    error_message = "The checkpoint_bucket must be an S3 bucket name (3-63 chars: a-z, 0-9, '.', '-')."
  }

  validation {
    condition     = var.checkpoint_bucket == null ? true : !strcontains(var.checkpoint_bucket, "..")
    error_message = "The checkpoint_bucket must not have two '.' in a row."
  }
}

variable "retain_data" {
  description = "Keep the FSx for Lustre file system and the checkpoint bucket (storage.retain): Terraform refuses every plan that deletes or replaces them (prevent_destroy). false moves them to addresses without it (moved.tf follows storage.retain), where a plan may delete them."
  type        = bool
  default     = true
}

variable "lustre_backup_retention_days" {
  description = "Days FSx keeps the daily automatic backups of a PERSISTENT file system (SCRATCH types have no backups); deleting it takes a final backup first."
  type        = number
  default     = 7

  validation {
    condition     = var.lustre_backup_retention_days >= 1 && var.lustre_backup_retention_days <= 90 && floor(var.lustre_backup_retention_days) == var.lustre_backup_retention_days
    error_message = "The lustre_backup_retention_days must be a whole number from 1 to 90."
  }
}

variable "checkpoint_write_access" {
  description = "Let the nodes write to the checkpoint bucket, not only read it."
  type        = bool
  default     = false
}

variable "checkpoint_noncurrent_version_days" {
  description = "Days the checkpoint bucket keeps an overwritten or deleted object's old version."
  type        = number
  default     = 30

  validation {
    condition     = var.checkpoint_noncurrent_version_days >= 1 && floor(var.checkpoint_noncurrent_version_days) == var.checkpoint_noncurrent_version_days
    error_message = "The checkpoint_noncurrent_version_days must be a whole number of at least 1."
  }
}

################################################################################
# Pools
################################################################################

variable "pools" {
  description = "The pools of GPU nodes, by name: one modules/pool call each (pools.tf). gpugen's plan writes every entry; node_labels and node_taints are EKS's, user_data_file pull mode's."
  type = map(object({
    instance_type               = string
    market                      = optional(string, "on-demand")
    capacity_reservation_id     = optional(string)
    nodes                       = map(string)
    placement_group             = optional(string)
    launch_template_name_prefix = string
    network_interfaces = list(object({
      network_card_index = number
      interface_type     = optional(string)
    }))
    root_volume = optional(object({
      type       = optional(string, "gp3")
      size_gib   = optional(number, 200)
      iops       = optional(number)
      throughput = optional(number)
      encrypted  = optional(bool, true)
    }), {})
    node_labels = optional(map(string), {})
    node_taints = optional(list(object({
      key    = string
      value  = optional(string)
      effect = string
    })), [])
    role           = optional(string)
    user_data_file = optional(string)
  }))

  validation {
    condition     = alltrue([for name in keys(var.pools) : can(regex("^[a-z][a-z0-9-]{0,30}$", name)) && !can(regex("^(con|prn|aux|nul|com[1-9]|lpt[1-9])$", name))])
    error_message = "Every pools key must be a name of lower-case letters, digits and '-' (1-31 chars, starting with a letter; not con, nul, aux...)."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : can(regex("^[a-z][a-z0-9-]*(\\.[a-z0-9]+)?$", pool.instance_type)) && length(pool.instance_type) <= 64])
    error_message = "Every pools entry's instance_type must be an instance or machine type like p5.48xlarge."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : contains(["on-demand", "spot", "capacity-block", "flex-start", "flex-start-queued"], pool.market)])
    error_message = "Every pools entry's market must be one of on-demand, spot, capacity-block, flex-start, flex-start-queued."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.market == "capacity-block" ? pool.capacity_reservation_id != null : (pool.market != "spot" || pool.capacity_reservation_id == null)])
    error_message = "Every pools entry's market must be on-demand, capacity-block with a capacity_reservation_id (the Capacity Block's), or spot without one (Spot Instances run in no Capacity Reservation)."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.capacity_reservation_id == null ? true : can(regex("^cr-[0-9a-f]{17}$", pool.capacity_reservation_id))])
    error_message = "Every pools entry's capacity_reservation_id must be a Capacity Reservation id: cr- and 17 hexadecimal digits, like cr-0123456789abcdef0."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : length(pool.nodes) <= 10000])
    error_message = "Every pools entry's nodes must be a map of at most 10000 nodes."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : alltrue([for key, tag in pool.nodes : can(regex("^(0|[1-9][0-9]{0,4})$", key)) && length(tag) >= 1 && length(tag) <= 255])])
    error_message = "Every pools entry's nodes must be node keys \"0\", \"1\", ... to Name tags of 1-255 characters."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.placement_group == null ? true : (length(pool.placement_group) >= 1 && length(pool.placement_group) <= 255)])
    error_message = "Every pools entry's placement_group must be null or a placement group name of 1-255 characters."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : can(regex("^[a-zA-Z0-9()./_-]{1,102}$", pool.launch_template_name_prefix))])
    error_message = "Every pools entry's launch_template_name_prefix must be 1-102 letters, digits and ( ) . / _ -."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : length(pool.network_interfaces) >= 1 && alltrue([for i, n in pool.network_interfaces : n.network_card_index == i])])
    error_message = "Every pools entry's network_interfaces must be one interface per network card, in card order from 0."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : alltrue([for i, n in pool.network_interfaces : i == 0 ? (n.interface_type == null || n.interface_type == "efa") : n.interface_type == "efa-only"])])
    error_message = "Every pools entry's network_interfaces must be the primary interface on card 0 (interface_type efa, or null for ENA alone) and an efa-only interface on every other card."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : contains(["gp3", "gp2", "io1", "io2"], pool.root_volume.type)])
    error_message = "Every pools entry's root_volume.type must be one of gp3, gp2, io1, io2."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.root_volume.size_gib >= 30 && pool.root_volume.size_gib <= 16384 && floor(pool.root_volume.size_gib) == pool.root_volume.size_gib])
    error_message = "Every pools entry's root_volume.size_gib must be an integer from 30 to 16384."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.root_volume.iops == null ? true : (pool.root_volume.iops >= 3000 && pool.root_volume.iops <= 256000 && floor(pool.root_volume.iops) == pool.root_volume.iops)])
    error_message = "Every pools entry's root_volume.iops must be an integer from 3000 to 256000."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.root_volume.throughput == null ? true : (pool.root_volume.throughput >= 125 && pool.root_volume.throughput <= 2000 && floor(pool.root_volume.throughput) == pool.root_volume.throughput)])
    error_message = "Every pools entry's root_volume.throughput must be an integer from 125 to 2000."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : length(pool.node_labels) <= 64 && alltrue([for k, v in pool.node_labels : can(regex("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$", k)) && length(k) <= 316 && can(regex("^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$", v))])])
    error_message = "Every pools entry's node_labels must be a map of at most 64 entries from a Kubernetes label key like workload-type or nvidia.com/gpu to a Kubernetes label value (up to 63 letters, digits, '-', '_', '.')."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : alltrue([for k, v in pool.node_labels : !can(regex("(^|[.])(kubernetes[.]io|k8s[.]io)/", k)) || can(regex("^(kubelet[.]kubernetes[.]io|node[.]kubernetes[.]io|([a-z0-9.-]*[.])?node-restriction[.]kubernetes[.]io)/", k))])])
    error_message = "Every pools entry's node_labels must be labels kubelet may set: none in the kubernetes.io or k8s.io namespaces but kubelet.kubernetes.io/, node.kubernetes.io/ and node-restriction.kubernetes.io/."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : length(pool.node_taints) <= 32 && alltrue([for i in pool.node_taints : (can(regex("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$", i.key)) && length(i.key) <= 316) && (i.value == null ? true : can(regex("^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$", i.value))) && contains(["NoSchedule", "PreferNoSchedule", "NoExecute"], i.effect)])])
    error_message = "Every pools entry's node_taints must be a list of at most 32 objects with key a Kubernetes label key like workload-type or nvidia.com/gpu, value a Kubernetes label value (up to 63 letters, digits, '-', '_', '.'), effect one of NoSchedule, PreferNoSchedule, NoExecute."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.role == null ? true : pool.role == "system"])
    error_message = "Every pools entry's role must be null for a GPU pool, or system for EKS's system pool (gpugen:role system: the inventory leaves its nodes out)."
  }

  validation {
    condition     = alltrue([for name, pool in var.pools : pool.user_data_file == null ? true : can(regex("^user-data-[a-z0-9_]+[.]sh$", pool.user_data_file))])
    error_message = "Every pools entry's user_data_file must be null or a file beside the .tf files, like user-data-h100.sh."
  }
}

variable "accepted_node_settings" {
  description = "By pool: the settings gpugen render --allow-replace accepted for its nodes, which later renders into the same folder keep. A pool whose settings (pools.tf, local.node_settings) differ both from these and from those its state records (terraform_data.recorded_node_settings) would have every node replaced, and its plan is refused; a pool not listed is compared with its state alone."
  type = map(object({
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
  }))
  default = {}
}

################################################################################
# Kubernetes API access (eks.tf, kubeadm.tf)
################################################################################

variable "kube_api_ingress_cidrs" {
  description = "IPv4 CIDRs that may reach the Kubernetes API server besides the nodes (kubernetes.apiIngressCidrs, default network.sshIngressCidrs): the Ansible controller, whose Helm and API calls (plays 02b-05) go there, or a bastion. EKS: 443 on the cluster security group, which the private endpoint needs for any network connected to the VPC; kubeadm: 6443 on the load balancer, or on the control-plane instance. Empty when the controller runs inside the node security group."
  type        = list(string)
  default     = []

  validation {
    condition     = length(var.kube_api_ingress_cidrs) <= 40 && alltrue([for i in var.kube_api_ingress_cidrs : can(regex("^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}/(3[0-2]|[12]?[0-9])$", i))])
    error_message = "The kube_api_ingress_cidrs must be a list of at most 40 of an IPv4 CIDR like 10.42.0.0/16."
  }

  validation {
    condition     = alltrue([for c in var.kube_api_ingress_cidrs : can(cidrnetmask(c)) && try(cidrsubnet(c, 0, 0) == c, false)])
    error_message = "Every kube_api_ingress_cidrs entry must be an IPv4 network address with a prefix, like 203.0.113.0/24."
  }
}

################################################################################
# kubeadm control plane (kubeadm.tf)
################################################################################

variable "control_plane_count" {
  description = "How many kubeadm control-plane instances (kubernetes.controlPlane.count): 1, or 3 (stacked etcd, an odd count) behind an internal Network Load Balancer; 0 for none (another distribution)."
  type        = number
  default     = 0

  validation {
    condition     = contains([0, 1, 3], var.control_plane_count)
    error_message = "The control_plane_count must be 0, 1 or 3."
  }
}

variable "control_plane_instance_type" {
  description = "EC2 instance type of the kubeadm control plane (kubernetes.controlPlane.instanceType); x86_64, as the nodes' image."
  type        = string
  default     = "m7i.xlarge"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]*(\\.[a-z0-9]+)?$", var.control_plane_instance_type)) && length(var.control_plane_instance_type) <= 64
    error_message = "The control_plane_instance_type must be an instance or machine type like p5.48xlarge."
  }
}

variable "control_plane_root_volume_size_gib" {
  description = "Root volume (gp3, encrypted) of each control-plane instance, in GiB: etcd's data, the container images and the logs."
  type        = number
  default     = 50

  validation {
    condition     = var.control_plane_root_volume_size_gib >= 20 && var.control_plane_root_volume_size_gib <= 16384 && floor(var.control_plane_root_volume_size_gib) == var.control_plane_root_volume_size_gib
    error_message = "The control_plane_root_volume_size_gib must be a whole number from 20 to 16384."
  }
}

variable "pod_network_ports" {
  description = "The pod network's ports between the control plane and the GPU nodes, by name (kubernetes.cni: Cilium's VXLAN and health checks, or Calico's BGP, IP-in-IP and Typha); ip_protocol tcp, udp, icmp (from_port the type, to_port the code) or 4 (IP-in-IP, no ports)."
  type        = map(object({ ip_protocol = string, from_port = number, to_port = number }))
  default     = {}

  validation {
    condition     = alltrue([for p in values(var.pod_network_ports) : contains(["tcp", "udp", "icmp", "4"], p.ip_protocol)])
    error_message = "Every pod_network_ports entry's ip_protocol must be tcp, udp, icmp or 4."
  }

  validation {
    condition     = alltrue([for p in values(var.pod_network_ports) : p.ip_protocol == "4" ? p.from_port == null && p.to_port == null : p.from_port != null && p.to_port != null])
    error_message = "A pod_network_ports entry has from_port and to_port, but IP-in-IP (4) has none."
  }
}

################################################################################
# EKS (eks.tf)
################################################################################

variable "eks_enabled" {
  description = "Create an EKS control plane the nodes join at boot (kubernetes.distribution eks)."
  type        = bool
  default     = false
}

variable "kubernetes_version" {
  description = "Kubernetes minor of the EKS cluster, e.g. 1.33; also picks the Ubuntu EKS node image and the add-on versions. null without EKS."
  type        = string
  default     = null

  validation {
    condition     = var.kubernetes_version == null ? true : can(regex("^1\\.[0-9]{2}$", var.kubernetes_version))
    error_message = "The kubernetes_version must be a Kubernetes minor like \"1.33\"."
  }
}

variable "eks_endpoint_public_access" {
  description = "Whether the API server also has a public endpoint (kubernetes.endpointAccess public-and-private); the private endpoint is always on."
  type        = bool
  default     = false
}

variable "eks_public_access_cidrs" {
  description = "IPv4 CIDRs that may reach the public endpoint (kubernetes.publicCidrs)."
  type        = list(string)
  default     = []

  validation {
    condition     = length(var.eks_public_access_cidrs) <= 40 && alltrue([for i in var.eks_public_access_cidrs : can(regex("^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}/(3[0-2]|[12]?[0-9])$", i))])
    error_message = "The eks_public_access_cidrs must be a list of at most 40 of an IPv4 CIDR like 10.42.0.0/16."
  }

  validation {
    condition     = alltrue([for c in var.eks_public_access_cidrs : can(cidrnetmask(c)) && try(cidrsubnet(c, 0, 0) == c, false)])
    error_message = "Every eks_public_access_cidrs entry must be an IPv4 network address with a prefix, like 203.0.113.0/24."
  }
}

variable "eks_admin_arns" {
  description = "IAM role or user ARNs given cluster-admin through EKS access entries (kubernetes.admins)."
  type        = list(string)
  default     = []

  validation {
    condition     = length(var.eks_admin_arns) <= 50 && alltrue([for i in var.eks_admin_arns : can(regex("^arn:aws(-cn|-us-gov)?:iam::[0-9]{12}:(role|user)(/[A-Za-z0-9+=,.@_-]{1,64})*/[A-Za-z0-9+=,.@_-]{1,64}$", i)) && length(i) <= 2048])
    error_message = "The eks_admin_arns must be a list of at most 50 of an IAM role or user ARN like arn:aws:iam::123456789012:role/platform-admin."
  }
}

variable "eks_creator_admin" {
  description = "Give the identity that creates the cluster (the one running terraform apply) cluster-admin, as EKS does by default. Changing it replaces the cluster."
  type        = bool
  default     = true
}

variable "eks_addon_versions" {
  description = "The EKS add-ons to install and the exact version of each (coredns, eks-pod-identity-agent, kube-proxy, vpc-cni), e.g. { coredns = \"v1.12.4-eksbuild.1\" }: gpugen's plan pins them for kubernetes_version, so that only a change of the spec changes them."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.eks_addon_versions : contains(["coredns", "eks-pod-identity-agent", "kube-proxy", "vpc-cni"], k) && can(regex("^v[0-9]+\\.[0-9]+\\.[0-9]+-eksbuild\\.[0-9]+$", v))])
    error_message = "The eks_addon_versions keys must be coredns, eks-pod-identity-agent, kube-proxy or vpc-cni, with versions like v1.12.4-eksbuild.1."
  }
}

variable "eks_addon_version_overrides" {
  description = "Versions over eks_addon_versions, by add-on name, e.g. { vpc-cni = \"v1.20.1-eksbuild.3\" } in an override.auto.tfvars of your own: the add-ons it does not name keep the plan's version (setting eks_addon_versions itself replaces the whole map). Naming eks-pod-identity-agent installs it."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.eks_addon_version_overrides : contains(["coredns", "eks-pod-identity-agent", "kube-proxy", "vpc-cni"], k) && can(regex("^v[0-9]+\\.[0-9]+\\.[0-9]+-eksbuild\\.[0-9]+$", v))])
    error_message = "The eks_addon_version_overrides keys must be coredns, eks-pod-identity-agent, kube-proxy or vpc-cni, with versions like v1.12.4-eksbuild.1."
  }
}

variable "eks_controller_tolerations" {
  description = "What the cluster's controllers (CoreDNS here) tolerate: gpugen's plan writes play 05's verdict taint where it gates nodes, and the GPU pools' taints where those are the only nodes; none with the system pool."
  type        = list(object({ key = string, operator = string, value = string, effect = string }))
  default     = []

  validation {
    condition     = alltrue([for t in var.eks_controller_tolerations : contains(["Equal", "Exists"], t.operator) && contains(["NoSchedule", "PreferNoSchedule", "NoExecute"], t.effect) && (t.operator == "Equal" || t.value == "")])
    error_message = "Every eks_controller_tolerations entry needs operator Equal or Exists (Exists with value \"\") and effect NoSchedule, PreferNoSchedule or NoExecute."
  }
}

variable "eks_controller_node_selector" {
  description = "The node labels the cluster's controllers (CoreDNS here) must run on: gpugen's plan writes { gpugen-pool = \"gpugen-system\" } with the system pool."
  type        = map(string)
  default     = {}
}

variable "eks_log_retention_days" {
  description = "Days CloudWatch keeps the control plane's logs (api, audit, authenticator, controllerManager, scheduler)."
  type        = number
  default     = 90

  validation {
    condition     = contains([1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653], var.eks_log_retention_days)
    error_message = "The eks_log_retention_days must be a CloudWatch Logs retention period (1, 3, 5, 7, 14, 30, 60, 90, ... 3653)."
  }
}

variable "eks_service_cidr" {
  description = "Range the cluster's Services get addresses from; it must not overlap the VPC or networks the nodes reach. null: 172.20.0.0/16 for a VPC in 10.0.0.0/8 (and an existing VPC), else 10.100.0.0/16."
  type        = string
  default     = null

  validation {
    condition     = var.eks_service_cidr == null ? true : can(cidrnetmask(var.eks_service_cidr)) && try(cidrsubnet(var.eks_service_cidr, 0, 0) == var.eks_service_cidr, false) && try(tonumber(split("/", var.eks_service_cidr)[1]) >= 12 && tonumber(split("/", var.eks_service_cidr)[1]) <= 24, false)
    error_message = "The eks_service_cidr must be an IPv4 network address with a prefix from /12 to /24, like 172.20.0.0/16."
  }
}

variable "eks_subnet_cidr" {
  description = "CIDR of the second control-plane subnet gpugen creates in another zone (EKS needs two); null for the second-to-last /28 of vpc_cidr."
  type        = string
  default     = null

  validation {
    condition     = var.eks_subnet_cidr == null ? true : can(cidrnetmask(var.eks_subnet_cidr)) && try(cidrsubnet(var.eks_subnet_cidr, 0, 0) == var.eks_subnet_cidr, false)
    error_message = "The eks_subnet_cidr must be an IPv4 network address with a prefix, like 10.42.255.224/28."
  }
}

variable "eks_subnet_zone" {
  description = "Availability zone of that second subnet; null for the first other zone of the region."
  type        = string
  default     = null

  validation {
    condition     = var.eks_subnet_zone == null ? true : can(regex("^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}(-[a-z0-9]+|[a-z])$", var.eks_subnet_zone))
    error_message = "The eks_subnet_zone must look like us-east-1b."
  }
}

variable "eks_subnet_ids" {
  description = "With an existing VPC: more subnets for the control plane, at least one in another zone than subnet_id."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for s in var.eks_subnet_ids : can(regex("^subnet-[0-9a-f]{8,17}$", s))])
    error_message = "Every eks_subnet_ids entry must look like subnet-0abc12345def67890."
  }
}

################################################################################
# Pull mode (pull.tf)
################################################################################

variable "pull_source" {
  description = "Pull mode: where nodes fetch the bundle, s3 (the checkpoint bucket, uploaded here) or git; null without pull mode."
  type        = string
  default     = null

  validation {
    condition     = var.pull_source == null ? true : contains(["s3", "git"], var.pull_source)
    error_message = "pull_source must be s3, git or null."
  }
}

variable "pull_bundle_prefix" {
  description = "Key prefix of the bundle in the checkpoint bucket, versioned by the spec's SHA-256."
  type        = string
  default     = null
}

variable "pull_bundle_files" {
  description = "The bundle's files, relative to the ansible/ folder: exactly the files the user data's digest lists, so Terraform uploads nothing else (no fact cache, kubeconfig or report a push run left there)."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for f in var.pull_bundle_files : can(regex("^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$", f)) && !strcontains(f, "..")])
    error_message = "Every pull_bundle_files entry must be a relative path inside the ansible/ folder."
  }
}

variable "pull_reports_prefix" {
  description = "Key prefix under which nodes write <role-id>:<instance-id>.json (IAM's aws:userid of an instance profile)."
  type        = string
  default     = null
}
