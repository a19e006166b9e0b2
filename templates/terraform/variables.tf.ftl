[=header]
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
    condition     = can(regex("^[a-z][a-z0-9-]{0,38}$", var.cluster_name))
    error_message = "The cluster_name must be 1-39 lower-case letters, digits and '-', starting with a letter."
  }
}

variable "environment" {
  description = "Environment (dev, prod, ...): the gpugen:environment tag and a suffix of resource names. null for none."
  type        = string
  default     = null

  validation {
    condition     = var.environment == null ? true : can(regex("^[a-z][a-z0-9-]{0,30}$", var.environment))
    error_message = "The environment must be 1-31 lower-case letters, digits and '-', starting with a letter."
  }
}

variable "region" {
  description = "AWS region of every resource, e.g. us-east-1."
  type        = string

  validation {
    condition     = can(regex("^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$", var.region))
    error_message = "The region must look like us-east-1."
  }
}

variable "availability_zone" {
  description = "The one availability zone of the new subnet; a cluster placement group and EFA traffic stay inside one zone."
  type        = string

  validation {
    condition     = can(regex("^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}(-[a-z0-9]+|[a-z])$", var.availability_zone))
    error_message = "The availability_zone must look like us-east-1a."
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
    error_message = "The metadata_http_tokens must be required or optional."
  }
}

variable "metadata_hop_limit" {
  description = "IMDSv2 response hop limit. 1 keeps containers in their own network namespace (bridge or overlay networks) from reaching the node's metadata and its IAM role; raise it to 2 only for containers that must read instance metadata."
  type        = number
  default     = 1

  validation {
    condition     = var.metadata_hop_limit >= 1 && var.metadata_hop_limit <= 64 && floor(var.metadata_hop_limit) == var.metadata_hop_limit
    error_message = "The metadata_hop_limit must be a whole number from 1 to 64."
  }
}

variable "kms_key_id" {
  description = "ARN of a customer managed KMS key for the root volumes, the Lustre file system (PERSISTENT types) and the checkpoint bucket; null for AWS managed keys."
  type        = string
  default     = null

  validation {
    condition     = var.kms_key_id == null ? true : can(regex("^arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:(key|alias)/.+$", var.kms_key_id))
    error_message = "The kms_key_id must be a KMS key or alias ARN."
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
    error_message = "The vpc_id must look like vpc-0abc12345def67890."
  }
}

variable "subnet_id" {
  description = "An existing subnet of vpc_id for the nodes and the Lustre file system; null to create one."
  type        = string
  default     = null

  validation {
    condition     = var.subnet_id == null ? true : can(regex("^subnet-[0-9a-f]{8,17}$", var.subnet_id))
    error_message = "The subnet_id must look like subnet-0abc12345def67890."
  }
}

variable "ssh_ingress_cidrs" {
  description = "IPv4 CIDRs allowed to reach the nodes on TCP 22; empty for no SSH (use SSM Session Manager)."
  type        = list(string)
  default     = []

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
    error_message = "The placement_strategy must be cluster, partition, spread or none."
  }
}

variable "fabric" {
  description = "Interconnect between the nodes: efa (one EFA interface per network card) or tcp (the primary ENA interface only)."
  type        = string
  default     = "tcp"

  validation {
    condition     = contains(["efa", "tcp"], var.fabric)
    error_message = "On AWS the fabric must be efa or tcp."
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
  description = "FSx for Lustre capacity in GiB: 1200, 2400 or a multiple of 2400 (SCRATCH_1: 1200, 2400 or a multiple of 3600)."
  type        = number
  default     = 1200

  validation {
    condition     = var.lustre_capacity_gib >= 1200 && floor(var.lustre_capacity_gib) == var.lustre_capacity_gib
    error_message = "The lustre_capacity_gib must be a whole number of at least 1200."
  }
}

variable "lustre_deployment_type" {
  description = "FSx for Lustre deployment type."
  type        = string
  default     = "PERSISTENT_2"

  validation {
    condition     = contains(["SCRATCH_1", "SCRATCH_2", "PERSISTENT_1", "PERSISTENT_2"], var.lustre_deployment_type)
    error_message = "The lustre_deployment_type must be SCRATCH_1, SCRATCH_2, PERSISTENT_1 or PERSISTENT_2."
  }
}

variable "lustre_per_unit_storage_throughput" {
  description = "MB/s per TiB of storage: PERSISTENT_1 50, 100 or 200; PERSISTENT_2 125, 250, 500 or 1000; null for SCRATCH types."
  type        = number
  default     = null

  validation {
    condition     = var.lustre_per_unit_storage_throughput == null ? true : contains([50, 100, 125, 200, 250, 500, 1000], var.lustre_per_unit_storage_throughput)
    error_message = "The lustre_per_unit_storage_throughput must be 50, 100, 200 (PERSISTENT_1) or 125, 250, 500, 1000 (PERSISTENT_2)."
  }
}

variable "lustre_mount_point" {
  description = "Where the nodes mount the file system (used by the Ansible roles; an output here)."
  type        = string
  default     = "/fsx"

  validation {
    condition     = can(regex("^/([A-Za-z0-9_-][A-Za-z0-9._-]*)(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$", var.lustre_mount_point))
    error_message = "The lustre_mount_point must be an absolute path like /fsx."
  }
}

variable "checkpoint_bucket" {
  description = "Name of the S3 bucket gpugen creates for checkpoints (versioned, encrypted, never public); null for none."
  type        = string
  default     = null

  validation {
    condition     = var.checkpoint_bucket == null ? true : can(regex("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", var.checkpoint_bucket)) && !strcontains(var.checkpoint_bucket, "..")
    error_message = "The checkpoint_bucket must be an S3 bucket name: 3-63 characters of a-z, 0-9, '.' and '-'."
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
<#if terraform.eks>

################################################################################
# EKS (kubernetes.distribution eks)
################################################################################

variable "kubernetes_version" {
  description = "Kubernetes minor of the EKS cluster, e.g. 1.33; also picks the Ubuntu EKS node image and the add-on versions."
  type        = string

  validation {
    condition     = can(regex("^1\\.[0-9]{2}$", var.kubernetes_version))
    error_message = "The kubernetes_version must be a Kubernetes minor like 1.33."
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
    condition     = alltrue([for c in var.eks_public_access_cidrs : can(cidrnetmask(c)) && try(cidrsubnet(c, 0, 0) == c, false)])
    error_message = "Every eks_public_access_cidrs entry must be an IPv4 network address with a prefix, like 203.0.113.0/24."
  }
}

variable "eks_admin_arns" {
  description = "IAM role or user ARNs given cluster-admin through EKS access entries (kubernetes.admins)."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for a in var.eks_admin_arns : can(regex("^arn:aws[a-z-]*:iam::[0-9]{12}:(role|user)/[A-Za-z0-9+=,.@_/-]+$", a))])
    error_message = "Every eks_admin_arns entry must be an IAM role or user ARN, like arn:aws:iam::123456789012:role/platform-admin."
  }
}

variable "eks_creator_admin" {
  description = "Give the identity that creates the cluster (the one running terraform apply) cluster-admin, as EKS does by default. Changing it replaces the cluster."
  type        = bool
  default     = true
}

variable "eks_addon_versions" {
  description = "Exact versions of the core add-ons (coredns, eks-pod-identity-agent, kube-proxy, vpc-cni), e.g. { coredns = \"v1.12.4-eksbuild.1\" }; an add-on not named gets EKS's default version for kubernetes_version."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.eks_addon_versions : contains(["coredns", "eks-pod-identity-agent", "kube-proxy", "vpc-cni"], k) && can(regex("^v[0-9]+\\.[0-9]+\\.[0-9]+-eksbuild\\.[0-9]+$", v))])
    error_message = "The eks_addon_versions keys must be coredns, eks-pod-identity-agent, kube-proxy or vpc-cni, with versions like v1.12.4-eksbuild.1."
  }
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
</#if>
<#list terraform.pools as pool>

################################################################################
# Pool [=id(pool.name)]
################################################################################

variable "[=id(pool.var)]_count" {
  description = [=hcl("Number of nodes in pool " + pool.name + ".")]
  type        = number
  default     = 0

  validation {
    condition     = var.[=id(pool.var)]_count >= 0 && var.[=id(pool.var)]_count <= 10000 && floor(var.[=id(pool.var)]_count) == var.[=id(pool.var)]_count
    error_message = "The [=id(pool.var)]_count must be a whole number from 0 to 10000."
  }
}

variable "[=id(pool.var)]_instance_type" {
  description = [=hcl("EC2 instance type of pool " + pool.name + ".")]
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]*\\.[a-z0-9]+$", var.[=id(pool.var)]_instance_type))
    error_message = "The [=id(pool.var)]_instance_type must be an EC2 instance type like p5.48xlarge."
  }
}

variable "[=id(pool.var)]_spot" {
  description = [=hcl("Run the nodes of pool " + pool.name + " as Spot instances (one-time requests, terminated on interruption).")]
  type        = bool
  default     = false
}

variable "[=id(pool.var)]_root_volume_encrypted" {
  description = [=hcl("Encrypt the root disks of pool " + pool.name + " (the secure default; CKV_AWS_8, AVD-AWS-0131). gpugen's linter refuses false (sec-unencrypted-storage) unless that rule is skipped on purpose.")]
  type        = bool
  default     = true
}

variable "[=id(pool.var)]_root_volume_type" {
  description = [=hcl("EBS volume type of the root disks of pool " + pool.name + ".")]
  type        = string
  default     = "gp3"

  validation {
    condition     = contains(["gp3", "gp2", "io1", "io2"], var.[=id(pool.var)]_root_volume_type)
    error_message = "The [=id(pool.var)]_root_volume_type must be gp3, gp2, io1 or io2."
  }
}

variable "[=id(pool.var)]_root_volume_size_gib" {
  description = [=hcl("Root disk size of pool " + pool.name + " in GiB.")]
  type        = number
  default     = 200

  validation {
    condition     = var.[=id(pool.var)]_root_volume_size_gib >= 30 && var.[=id(pool.var)]_root_volume_size_gib <= 16384 && floor(var.[=id(pool.var)]_root_volume_size_gib) == var.[=id(pool.var)]_root_volume_size_gib
    error_message = "The [=id(pool.var)]_root_volume_size_gib must be a whole number from 30 to 16384."
  }
}

variable "[=id(pool.var)]_root_volume_iops" {
  description = [=hcl("Provisioned IOPS of the root disks of pool " + pool.name + " (gp3, io1, io2); null for the volume type's default.")]
  type        = number
  default     = null

  validation {
    condition     = var.[=id(pool.var)]_root_volume_iops == null ? true : var.[=id(pool.var)]_root_volume_iops >= 3000 && var.[=id(pool.var)]_root_volume_iops <= 256000
    error_message = "The [=id(pool.var)]_root_volume_iops must be from 3000 to 256000."
  }
}

variable "[=id(pool.var)]_root_volume_throughput" {
  description = [=hcl("Throughput of the gp3 root disks of pool " + pool.name + " in MiB/s; null for the default (125).")]
  type        = number
  default     = null

  validation {
    condition     = var.[=id(pool.var)]_root_volume_throughput == null ? true : var.[=id(pool.var)]_root_volume_throughput >= 125 && var.[=id(pool.var)]_root_volume_throughput <= 2000
    error_message = "The [=id(pool.var)]_root_volume_throughput must be from 125 to 2000."
  }
}

variable "[=id(pool.var)]_driver_version" {
  description = [=hcl("NVIDIA driver version of pool " + pool.name + ", checked by the version gate (compatibility.tf) against the GPU and the CUDA version.")]
  type        = string

  validation {
    condition     = can(regex("^[0-9]{3}(\\.[0-9]{1,3}){1,2}$", var.[=id(pool.var)]_driver_version))
    error_message = "The [=id(pool.var)]_driver_version must look like 580.95.05."
  }
}

variable "[=id(pool.var)]_cuda_version" {
  description = [=hcl("CUDA toolkit version (major.minor) of pool " + pool.name + ", checked by the version gate.")]
  type        = string

  validation {
    condition     = can(regex("^[0-9]{2}\\.[0-9]{1,2}$", var.[=id(pool.var)]_cuda_version))
    error_message = "The [=id(pool.var)]_cuda_version must look like 12.8."
  }
}
<#if terraform.eks>

variable "[=id(pool.var)]_node_labels" {
  description = [=hcl("Kubernetes labels kubelet registers the nodes of pool " + pool.name + " with (EKS).")]
  type        = map(string)
  default     = {}

  # Kubernetes label syntax (which also keeps them safe in the join script), and no key in the
  # kubernetes.io / k8s.io namespaces but the ones kubelet may set itself: kubelet refuses to
  # start with any other (NodeRestriction,
  # https://kubernetes.io/docs/reference/access-authn-authz/admission-controllers/#noderestriction).
  validation {
    condition     = alltrue([for k, v in var.[=id(pool.var)]_node_labels : can(regex("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$", k)) && can(regex("^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$", v))])
    error_message = "Every [=id(pool.var)]_node_labels entry must be a Kubernetes label (key like workload-type or example.com/tier, value of up to 63 letters, digits, '-', '_', '.')."
  }

  validation {
    condition     = alltrue([for k, v in var.[=id(pool.var)]_node_labels : !can(regex("(^|[.])(kubernetes[.]io|k8s[.]io)/", k)) || can(regex("^(kubelet[.]kubernetes[.]io|node[.]kubernetes[.]io|[a-z0-9.-]*[.]node-restriction[.]kubernetes[.]io|node-restriction[.]kubernetes[.]io)/", k))])
    error_message = "[=id(pool.var)]_node_labels: kubelet may not set labels in the kubernetes.io or k8s.io namespaces other than kubelet.kubernetes.io/, node.kubernetes.io/ and node-restriction.kubernetes.io/."
  }
}

variable "[=id(pool.var)]_node_taints" {
  description = [=hcl("Kubernetes taints kubelet registers the nodes of pool " + pool.name + " with (EKS).")]
  type = list(object({
    key    = string
    value  = string
    effect = string
  }))
  default = []

  validation {
    condition     = alltrue([for t in var.[=id(pool.var)]_node_taints : can(regex("^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$", t.key)) && can(regex("^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$", t.value)) && contains(["NoSchedule", "PreferNoSchedule", "NoExecute"], t.effect)])
    error_message = "Every [=id(pool.var)]_node_taints entry needs a Kubernetes label key and value, and effect NoSchedule, PreferNoSchedule or NoExecute."
  }
}
</#if>
</#list>
