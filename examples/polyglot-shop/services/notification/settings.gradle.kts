rootProject.name = "notification"
