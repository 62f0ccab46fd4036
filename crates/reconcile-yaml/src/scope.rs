//! Which kinds are cluster-scoped: their objects have no namespace, so a
//! manifest's object of such a kind is named `Kind/name`.
//!
//! Checked against upstream: every built-in resource that Kubernetes keeps in
//! etcd without a namespace in its key, as listed by
//! `test/integration/etcd/data.go` of kubernetes/kubernetes (commit
//! 008b3652959c), plus the cluster-scoped kinds that are never stored
//! (`ComponentStatus` and the review kinds, `NAMESPACED false` in
//! `kubectl api-resources`). Every other kind, a custom resource included,
//! is namespaced unless the reader is told otherwise
//! (`ManifestOptions::cluster_scoped`).

/// The built-in cluster-scoped kinds, by API group.
pub const CLUSTER_SCOPED_KINDS: [&str; 39] = [
    // core (v1)
    "Namespace",
    "Node",
    "PersistentVolume",
    "ComponentStatus",
    // admissionregistration.k8s.io
    "MutatingAdmissionPolicy",
    "MutatingAdmissionPolicyBinding",
    "MutatingWebhookConfiguration",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "ValidatingWebhookConfiguration",
    // apiextensions.k8s.io, apiregistration.k8s.io
    "CustomResourceDefinition",
    "APIService",
    // authentication.k8s.io, authorization.k8s.io (never stored)
    "SelfSubjectReview",
    "TokenReview",
    "SelfSubjectAccessReview",
    "SelfSubjectRulesReview",
    "SubjectAccessReview",
    // certificates.k8s.io
    "CertificateSigningRequest",
    "ClusterTrustBundle",
    // flowcontrol.apiserver.k8s.io
    "FlowSchema",
    "PriorityLevelConfiguration",
    // internal.apiserver.k8s.io, storagemigration.k8s.io
    "StorageVersion",
    "StorageVersionMigration",
    // networking.k8s.io
    "IngressClass",
    "IPAddress",
    "ServiceCIDR",
    // node.k8s.io
    "RuntimeClass",
    // rbac.authorization.k8s.io
    "ClusterRole",
    "ClusterRoleBinding",
    // resource.k8s.io
    "DeviceClass",
    "DeviceTaintRule",
    "ResourcePoolStatusRequest",
    "ResourceSlice",
    // scheduling.k8s.io
    "PriorityClass",
    // storage.k8s.io
    "CSIDriver",
    "CSINode",
    "StorageClass",
    "VolumeAttachment",
    "VolumeAttributesClass",
];

/// Whether objects of `kind` have no namespace: a built-in cluster-scoped
/// kind, or one of `also` (kinds the user marked cluster-scoped).
pub fn is_cluster_scoped(kind: &str, also: &[String]) -> bool {
    CLUSTER_SCOPED_KINDS.contains(&kind) || also.iter().any(|marked| marked == kind)
}
