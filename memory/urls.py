from django.urls import path

from memory import ops_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("ops/", ops_views.ops_home, name="ops"),
]
