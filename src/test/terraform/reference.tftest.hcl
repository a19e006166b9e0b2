# Terraform's own verdicts on the rendered example (roles-generated/h100-training): plans with a
# mocked aws provider, one per case the version gate, the EFA interfaces and the network checks
# must decide. Run with ./src/test/terraform/run (needs terraform >= 1.7 and the aws provider).

mock_provider "aws" {
  mock_data "aws_ami" {
    defaults = { id = "ami-0123456789abcdef0" }
  }
  mock_data "aws_partition" {
    defaults = { partition = "aws" }
  }
  mock_data "aws_iam_policy_document" {
    defaults = { json = "{}" }
  }
  mock_data "aws_availability_zones" {
    defaults = { names = ["us-east-1a", "us-east-1b"] }
  }
  mock_data "aws_eks_addon_version" {
    defaults = { version = "v1.0.0-eksbuild.1" }
  }
}

run "reference_plans" {
  command = plan
  assert {
    condition     = length(aws_instance.h100) == 16
    error_message = "16 nodes"
  }
  assert {
    condition     = length(aws_launch_template.h100.network_interfaces) == 32
    error_message = "p5.48xlarge gets one EFA interface per network card: 32"
  }
  assert {
    condition = alltrue([
      for i, nic in aws_launch_template.h100.network_interfaces :
      nic.network_card_index == i && nic.device_index == 0 && nic.interface_type == (i == 0 ? "efa" : "efa-only")
    ])
    error_message = "card 0 is the EFA-with-ENA primary, every other card efa-only at device 0"
  }
  assert {
    condition     = aws_instance.h100[3].tags["Name"] == "h100-training-h100-3" && aws_instance.h100[3].tags["gpugen:pool"] == "h100"
    error_message = "the Name and gpugen:pool tags the inventory reads"
  }
  assert {
    condition     = aws_instance.h100[0].metadata_options[0].http_tokens == "required" && aws_instance.h100[0].root_block_device[0].encrypted
    error_message = "IMDSv2 and encrypted root volumes"
  }
  assert {
    condition     = aws_instance.h100[0].instance_market_options[0].market_type == "spot"
    error_message = "market: spot"
  }
}

run "driver_too_old_for_cuda" {
  command = plan
  variables {
    h100_driver_version = "520.61.05"
  }
  expect_failures = [aws_launch_template.h100]
}

run "driver_too_old_for_gpu_only" {
  command = plan
  variables {
    h100_driver_version = "525.60.13"
    h100_cuda_version   = "12.0"
  }
  expect_failures = [aws_launch_template.h100]
}

run "driver_ok_for_gpu_12_0" {
  command = plan
  variables {
    h100_driver_version = "525.85.12"
    h100_cuda_version   = "12.0"
  }
}

# g5.xlarge: a known type without EFA (the g5 sizes from 8xlarge up have it).
run "efa_on_type_without_efa" {
  command = plan
  variables {
    h100_instance_type = "g5.xlarge"
  }
  expect_failures = [aws_launch_template.h100]
}

# g4ad.xlarge: AMD Radeon Pro V520 GPUs, not in gpugen's table of NVIDIA types.
run "efa_on_unknown_type" {
  command = plan
  variables {
    h100_instance_type = "g4ad.xlarge"
  }
  expect_failures = [aws_launch_template.h100, check.h100_versions]
}

run "tcp_on_unknown_type" {
  command = plan
  variables {
    h100_instance_type = "g4ad.xlarge"
    h100_fabric        = "tcp"
  }
  expect_failures = [check.h100_versions]
  assert {
    condition     = length(aws_launch_template.h100.network_interfaces) == 1
    error_message = "one interface"
  }
}

run "cuda13_needs_580" {
  command = plan
  variables {
    h100_driver_version = "575.57.08"
    h100_cuda_version   = "13.0"
  }
  expect_failures = [aws_launch_template.h100]
}

run "mvc_warning" {
  command = plan
  variables {
    h100_driver_version = "560.35.03"
    h100_cuda_version   = "12.8"
  }
  expect_failures = [check.h100_versions]
}

run "bad_capacity" {
  command = plan
  variables {
    lustre_capacity_gib = 3600
  }
  expect_failures = [aws_fsx_lustre_file_system.this]
}

run "two_part_driver_version" {
  command = plan
  variables {
    h100_driver_version = "580.95"
  }
}

run "invalid_driver_var" {
  command = plan
  variables {
    h100_driver_version = "580.1000.1"
  }
  expect_failures = [var.h100_driver_version]
}

# The mock invents the subnet's VPC, so the postcondition that it is vpc_id's must fail.
run "existing_vpc" {
  command = plan
  variables {
    vpc_cidr           = null
    subnet_cidr        = null
    vpc_id             = "vpc-0123456789abcdef0"
    subnet_id          = "subnet-0123456789abcdef0"
    enable_nat_gateway = false
    eks_subnet_ids     = ["subnet-0123456789abcdef1"]
  }
  expect_failures = [data.aws_subnet.existing]
}

run "nat" {
  command = plan
  variables {
    enable_nat_gateway = true
  }
  assert {
    condition     = aws_subnet.public[0].cidr_block == "10.42.255.240/28"
    error_message = "public subnet"
  }
}

run "nat_overlap" {
  command = plan
  variables {
    enable_nat_gateway = true
    public_subnet_cidr = "10.42.1.0/28"
  }
  expect_failures = [aws_subnet.public]
}

run "subnet_outside" {
  command = plan
  variables {
    subnet_cidr = "10.43.0.0/20"
  }
  expect_failures = [aws_subnet.nodes]
}

run "spread_limit" {
  command = plan
  variables {
    placement_strategy = "spread"
  }
  expect_failures = [aws_placement_group.h100]
}

# kubernetes.distribution eks (the example's): the second control-plane subnet, the endpoint
# rules and the labels kubelet may register.
run "eks_control_plane_subnet" {
  command = plan
  assert {
    condition     = aws_subnet.eks_control_plane[0].cidr_block == "10.42.255.224/28" && aws_subnet.eks_control_plane[0].availability_zone == "us-east-1b"
    error_message = "the second-to-last /28 of the VPC, in the first other zone"
  }
  assert {
    condition     = aws_eks_cluster.this.kubernetes_network_config[0].service_ipv4_cidr == "172.20.0.0/16"
    error_message = "a VPC in 10.0.0.0/8 gets Services from 172.20.0.0/16"
  }
}

run "eks_subnet_overlaps_nodes" {
  command = plan
  variables {
    eks_subnet_cidr = "10.42.0.16/28"
  }
  expect_failures = [aws_subnet.eks_control_plane]
}

run "eks_public_endpoint_without_cidrs" {
  command = plan
  variables {
    eks_endpoint_public_access = true
    eks_public_access_cidrs    = []
  }
  expect_failures = [aws_eks_cluster.this]
}

run "eks_public_endpoint_open_to_all" {
  command = plan
  variables {
    eks_endpoint_public_access = true
    eks_public_access_cidrs    = ["0.0.0.0/0"]
  }
  expect_failures = [aws_eks_cluster.this]
}

run "eks_label_kubelet_may_not_set" {
  command = plan
  variables {
    h100_node_labels = { "node-role.kubernetes.io/gpu" = "" }
  }
  expect_failures = [var.h100_node_labels]
}

run "eks_existing_vpc_without_second_subnet" {
  command = plan
  variables {
    vpc_cidr           = null
    subnet_cidr        = null
    vpc_id             = "vpc-0123456789abcdef0"
    subnet_id          = "subnet-0123456789abcdef0"
    enable_nat_gateway = false
  }
  expect_failures = [data.aws_subnet.existing, check.eks_subnets]
}
