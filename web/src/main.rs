fn main() {
    reconcile_web::run();
}
